/**
 * The file to give `new Worker()` or piscina's `filename` (its `.href`), in both ways the code
 * runs. A worker thread does not inherit the tsx loader of the main thread, so under
 * tsx/vitest (this module is a `.ts` file) a worker starts from a small plain-JavaScript boot
 * file that loads tsx itself and imports the TypeScript entry; from the compiled build (a `.js`
 * file in dist/) it starts from the compiled entry directly, with no tsx at all.
 *
 *   const WORKER_URL = workerEntry(import.meta.url, './worker.ts', './worker-boot.mjs');
 */
export function workerEntry(callerUrl: string, tsEntry: string, bootFile: string): URL {
  if (callerUrl.endsWith('.js')) return new URL(tsEntry.replace(/\.ts$/, '.js'), callerUrl);
  return new URL(bootFile, callerUrl);
}
