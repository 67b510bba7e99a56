/**
 * Under `npm start` or `npx rapport …` the script line is `exec node …`, so npm's child is this
 * process and the SIGTERM a process manager sends npm is forwarded here. Should the launcher
 * die without forwarding (SIGKILL, an older npm, `npx`, a shell wrapper), this process would be
 * left running, holding the data directory or its jobs; so while started by npm it stops when
 * its parent goes.
 */
export function watchLauncher(onGone: () => void): void {
  if (!process.env.npm_lifecycle_event) return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      onGone();
    }
  }, 500);
  timer.unref();
}
