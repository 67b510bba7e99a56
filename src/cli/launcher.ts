/**
 * Under `npm start` or `npx rapport …` the script line is `exec node …`, so npm's child is this
 * process and the SIGTERM a process manager sends npm is forwarded here. Should the launcher
 * die without forwarding (SIGKILL, an older npm, `npx`, a shell wrapper), this process would be
 * left running, holding the data directory or its jobs; so while started by npm it stops when
 * its parent goes.
 */
// Read as the CLI loads, not when the watch starts: a launcher that dies while the command is
// still starting (opening the database) must be noticed too.
const LAUNCHER_PID = process.ppid;

export function watchLauncher(onGone: () => void): void {
  if (!process.env.npm_lifecycle_event) return;
  const parent = LAUNCHER_PID;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      onGone();
    }
  }, 500);
  timer.unref();
}

/** A stop asked for by a signal or by the launcher's going, held until the command is up. */
export interface StopSignals {
  /** The signal that came while the command was starting, or null. */
  readonly pending: string | null;
  /** The command is up: `stop` runs at the first signal, or now if one already came. */
  whenUp(stop: (signal: string) => void): void;
}

/**
 * Takes SIGTERM, SIGINT and the launcher's going from now on, before anything is opened: one
 * that arrives while the command starts (opening the database, migrations) stops it cleanly once
 * it is up, instead of killing the process by the default action (and, on the embedded
 * database, leaving the data directory's lock behind). One in the first half second, while Node
 * loads the code, still takes the default action: nothing is open then.
 */
export function takeStopSignals(): StopSignals {
  let pending: string | null = null;
  let onStop: ((signal: string) => void) | null = null;
  const stop = (signal: string) => {
    if (pending !== null) return;
    pending = signal;
    onStop?.(signal);
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  watchLauncher(() => stop('launcher exited'));
  return {
    get pending() {
      return pending;
    },
    whenUp(stop) {
      onStop = stop;
      if (pending !== null) stop(pending);
    },
  };
}
