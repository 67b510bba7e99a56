/** Body of the DISC map rendering thread, run by piscina (disc-map-renderer.ts): SVG in, PNG out. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { renderDiscMapPng, renderDiscMapSvg } from './disc-map.ts';
import { lowerThreadPriority } from '../shared/thread-priority.ts';

lowerThreadPriority();

/**
 * resvg frees a render's memory (the fonts it parsed and the pixmap, ~2.7 MB) only once V8 has
 * collected its JS wrapper and the thread's event loop has turned, and V8 does not know that
 * memory exists: this thread's JS heap grows by a few KB a render, so V8 rarely collected it, and
 * 400 uncached maps held over 1 GB. Hence a full collection of this thread's small heap (~6 ms)
 * every RENDERS_PER_COLLECTION renders, and one render per turn of the event loop (the pool
 * sends one render at a time, with piscina's Atomics loop off, so the loop turns between them).
 */
const RENDERS_PER_COLLECTION = 16;
function exposedGc(): () => void {
  // The flag is read when a context is made, hence the new one; only this thread's heap is collected.
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('gc');
  if (typeof gc !== 'function') return () => undefined;
  return () => {
    gc();
  };
}
const collectGarbage = exposedGc();
let rendersSinceCollection = 0;

// The first render loads the fonts and warms the rasteriser; done before piscina counts the
// thread as ready, so the renderer's watchdog (which starts at ready) times renders, not the start.
renderDiscMapPng(renderDiscMapSvg({ x: 0, y: 0 }));

/** One render. A failure is the task's error (piscina rejects the caller's promise with it). */
export function renderTask(svg: string): Uint8Array {
  const png = renderDiscMapPng(svg);
  rendersSinceCollection += 1;
  if (rendersSinceCollection >= RENDERS_PER_COLLECTION) {
    rendersSinceCollection = 0;
    collectGarbage();
  }
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}

// Piscina calls the module's default export (the compiled build starts this file directly).
export default renderTask;
