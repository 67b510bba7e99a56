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
