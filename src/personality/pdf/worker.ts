/**
 * Body of a PDF worker thread (started through worker-boot.mjs). Handles one request at a
 * time: the pool never sends a second before the first is answered.
 */
import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { extractPdfText, type ExtractOutcome } from './extract-core.ts';
import type { WorkerMessage, WorkerRequest } from './types.ts';
import { warmupPdf } from './warmup.ts';
import { lowerThreadPriority } from '../../shared/thread-priority.ts';

lowerThreadPriority();

const port = parentPort;
if (port === null) throw new Error('worker.ts must run in a worker thread');

// Load pdf.js and run it once before saying ready: the first real document then meets
// loaded, partly JIT-compiled code (~70 ms instead of ~250 ms). A failure here means a
// broken install, not a bad file.
const warm = await extractPdfText(warmupPdf(), { maxPages: 1, hardPageCap: 1, maxTextChars: 100, maxDecodedBytes: 1 << 20 });
if (!warm.result.ok || warm.result.text !== 'Warm up') throw new Error('PDF worker self-check failed');

port.on('message', (request: WorkerRequest) => {
  void handle(request).then((outcome) => {
    const message: WorkerMessage = { type: 'result', id: request.id, ...outcome };
    port.postMessage(message);
  });
});
port.postMessage({ type: 'ready' } satisfies WorkerMessage);

async function handle(request: WorkerRequest): Promise<ExtractOutcome> {
  let bytes: Uint8Array;
  try {
    // A spooled upload: read here, in this thread, rather than on the event loop.
    bytes = 'file' in request ? new Uint8Array(await readFile(request.file)) : request.bytes;
  } catch {
    // The file went away (a spool emptied by hand): nothing to read, and pdf.js is untouched.
    return { result: { ok: false, reason: 'unreadable' }, recycle: false };
  }
  try {
    return await extractPdfText(bytes, request.options);
  } catch {
    // extractPdfText handles what it expects; anything else leaves pdf.js in doubt.
    return { result: { ok: false, reason: 'unreadable' }, recycle: true };
  }
}
