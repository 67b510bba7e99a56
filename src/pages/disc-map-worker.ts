/** Body of the DISC map rendering thread: SVG in, PNG out, one request at a time. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { renderDiscMapPng, renderDiscMapSvg } from './disc-map.ts';
import { lowerThreadPriority } from '../shared/thread-priority.ts';

lowerThreadPriority();

/** A render, or the request to exit once the render in hand is done (see the renderer's retire). */
export type RenderRequest = { id: number; svg: string } | { exit: true };
export type RenderReply = { id: number; png: Uint8Array } | { id: number; error: string };

const port = parentPort;
if (port === null) throw new Error('disc-map-worker.ts must run in a worker thread');
/** 1 once the renderer has retired this thread: what is still queued goes unrendered. */
const retired = (workerData as { retired: Int32Array }).retired;

/**
 * resvg frees a render's memory (the fonts it parsed and the pixmap, ~2.7 MB) only once V8 has
 * collected its JS wrapper and the thread's event loop has turned, and V8 does not know that
 * memory exists: this thread's JS heap grows by a few KB a render, so V8 rarely collected it, and
 * 400 uncached maps held over 1 GB. Hence a full collection of this thread's small heap (~6 ms)
 * every RENDERS_PER_COLLECTION renders, and one render per turn of the event loop (a port hands
 * over every queued message in one turn, which would keep the freeing waiting behind them all).
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
const queue: RenderRequest[] = [];

function renderNext(): void {
  const request = queue.shift();
  if (request === undefined) return;
  if ('exit' in request || Atomics.load(retired, 0) === 1) {
    queue.length = 0;
    port?.close();
    return;
  }
  try {
    const png = renderDiscMapPng(request.svg);
    const bytes = new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
    port?.postMessage({ id: request.id, png: bytes } satisfies RenderReply);
  } catch (error) {
    port?.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies RenderReply);
  }
  rendersSinceCollection += 1;
  if (rendersSinceCollection >= RENDERS_PER_COLLECTION) {
    rendersSinceCollection = 0;
    collectGarbage();
  }
  if (queue.length > 0) setImmediate(renderNext);
}

port.on('message', (request: RenderRequest) => {
  queue.push(request);
  if (queue.length === 1) setImmediate(renderNext);
});
// The first render loads the fonts and warms the rasteriser; done before saying ready, so the
// renderer's watchdog (which starts at ready) times renders, not the thread's start.
renderDiscMapPng(renderDiscMapSvg({ x: 0, y: 0 }));
port.postMessage({ ready: true });
