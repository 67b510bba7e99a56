/** Body of the DISC map rendering thread: SVG in, PNG out, one request at a time. */
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

port.on('message', (request: RenderRequest) => {
  if ('exit' in request || Atomics.load(retired, 0) === 1) {
    port.close();
    return;
  }
  try {
    const png = renderDiscMapPng(request.svg);
    const bytes = new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
    port.postMessage({ id: request.id, png: bytes } satisfies RenderReply);
  } catch (error) {
    port.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies RenderReply);
  }
});
// The first render loads the fonts and warms the rasteriser; done before saying ready, so the
// renderer's watchdog (which starts at ready) times renders, not the thread's start.
renderDiscMapPng(renderDiscMapSvg({ x: 0, y: 0 }));
port.postMessage({ ready: true });
