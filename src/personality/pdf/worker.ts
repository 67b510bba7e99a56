/**
 * Body of a PDF worker thread, run by piscina (extractor.ts) through worker-boot.mjs. One job at
 * a time: the pool gives a thread a second only after the first is answered.
 */
import { readFile } from 'node:fs/promises';
import { parentPort, threadId } from 'node:worker_threads';
import { extractPdfText, type ExtractOutcome } from './extract-core.ts';
import type { PdfJobStarted, PdfReply, PdfTask } from './types.ts';
import { warmupPdf } from './warmup.ts';
import { lowerThreadPriority } from '../../shared/thread-priority.ts';

lowerThreadPriority();

const port = parentPort;
if (port === null) throw new Error('worker.ts must run in a worker thread');

// Load pdf.js and run it once before piscina counts this thread as ready: the first real
// document then meets loaded, partly JIT-compiled code (~70 ms instead of ~250 ms). A failure
// here means a broken install, not a bad file: the thread fails to start.
const warm = await extractPdfText(warmupPdf(), { maxPages: 1, hardPageCap: 1, maxTextChars: 100, maxDecodedBytes: 1 << 20 });
if (!warm.result.ok || warm.result.text !== 'Warm up') throw new Error('PDF worker self-check failed');

let jobsDone = 0;
/** Asked to be replaced: pdf.js is not touched again here. */
let retiring = false;

export async function runPdfTask(task: PdfTask): Promise<PdfReply> {
  if (task.kind === 'ping') return { kind: 'pong' };
  // A job piscina handed over before the pool replaced this thread: another thread reads it.
  if (retiring) return { kind: 'retired' };
  port?.postMessage({ pdfJobStarted: task.id } satisfies PdfJobStarted);
  const outcome = await handle(task);
  jobsDone += 1;
  retiring = outcome.recycle || jobsDone >= task.recycleAfterJobs;
  return { kind: 'done', result: outcome.result, recycle: retiring, threadId };
}

async function handle(task: Extract<PdfTask, { kind: 'extract' }>): Promise<ExtractOutcome> {
  let bytes: Uint8Array;
  try {
    // A spooled upload: read here, in this thread, rather than on the event loop.
    bytes = 'file' in task.source ? new Uint8Array(await readFile(task.source.file)) : task.source.bytes;
  } catch {
    // The file went away (a spool emptied by hand): nothing to read, and pdf.js is untouched.
    return { result: { ok: false, reason: 'unreadable' }, recycle: false };
  }
  try {
    return await extractPdfText(bytes, task.options);
  } catch {
    // extractPdfText handles what it expects; anything else leaves pdf.js in doubt.
    return { result: { ok: false, reason: 'unreadable' }, recycle: true };
  }
}

// Piscina calls the module's default export (the compiled build starts this file directly).
export default runPdfTask;
