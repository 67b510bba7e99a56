import { setPriority } from 'node:os';
import { isMainThread } from 'node:worker_threads';

/** The nice value of the PDF and DISC map worker threads (the text pool asks piscina for the same). */
export const WORKER_THREAD_NICE = 10;

/**
 * Lowers the scheduling priority of the calling worker thread, so that when its work takes
 * every core the event loop (nice 0) still gets the CPU the moment a request arrives: on a
 * 2-core machine, two PDF threads otherwise share the CPU equally with it,
 * and /healthz waits behind their time slices. Their work is only delayed while the event loop
 * has something to do.
 *
 * Linux keeps the nice value per thread, so only this thread changes. Elsewhere the call would
 * lower the whole process, event loop included, so it is not made. Refused (a sandbox): ignored.
 */
export function lowerThreadPriority(): void {
  // Never the event loop itself, should a worker's module be loaded there by mistake.
  if (isMainThread || process.platform !== 'linux') return;
  try {
    setPriority(0, WORKER_THREAD_NICE);
  } catch {
    // Keeps the normal priority: slower to yield, nothing else changes.
  }
}
