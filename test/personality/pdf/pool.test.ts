/**
 * The PDF pool's life cycle on piscina (src/personality/pdf/extractor.ts): threads start with
 * the first document and leave when idle, are replaced after their share of documents, a queue
 * behind a stopped thread is still served, and a thread that cannot start fails each waiting
 * document once rather than leaving it waiting.
 */
import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { PdfExtractor, type PdfTextResult } from '../../../src/personality/pdf/index.ts';
import { RESUME_PAGES, resumePdf, streamBombPdf } from './fixtures.ts';

const RESUME_TEXT = RESUME_PAGES.map((page) => page.map((line) => line.text).join('\n')).join('\n\n');

/** Waits (bounded) until `check` holds. */
async function until(check: () => boolean, ms = 20_000): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (!check() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return check();
}

describe('PdfExtractor on piscina', () => {
  it('starts no thread before the first document; an idle thread leaves and the next document starts a fresh one', async () => {
    const extractor = new PdfExtractor({}, 2, { idleMs: 200 });
    try {
      const resume = await resumePdf();
      expect(extractor.threadCount).toBe(0);
      expect(await extractor.extract(resume)).toMatchObject({ ok: true, text: RESUME_TEXT });
      // One document, one thread, though two are allowed.
      expect(extractor.workersStarted).toBe(1);
      expect(await until(() => extractor.threadCount === 0)).toBe(true);
      expect(await extractor.extract(resume)).toMatchObject({ ok: true, text: RESUME_TEXT });
      expect(extractor.workersStarted).toBe(2);
    } finally {
      await extractor.close();
    }
  }, 60_000);

  // Read one after another, each thread ends after its share between two documents; sent all at
  // once, documents wait in the queue while the thread they were behind ends.
  type Read = () => Promise<PdfTextResult>;
  const oneAfterAnother = async (read: Read) => {
    const results: PdfTextResult[] = [];
    for (let i = 0; i < 5; i++) results.push(await read());
    return results;
  };
  const allAtOnce = (read: Read) => Promise.all(Array.from({ length: 5 }, () => read()));
  it.for([
    { how: 'one after another', readAll: oneAfterAnother },
    { how: 'while documents wait', readAll: allAtOnce },
  ])('replaces a thread once it has read its share of documents, $how: every one is read, none left waiting', { timeout: 60_000 }, async ({ readAll }) => {
    const extractor = new PdfExtractor({}, 1, { recycleAfterJobs: 2 });
    try {
      const resume = await resumePdf();
      const results = await readAll(() => extractor.extract(resume));
      expect(results.every((result) => result.ok && result.text === RESUME_TEXT)).toBe(true);
      // Documents 1-2 on the first thread, 3-4 on the second, 5 on the third.
      expect(extractor.workersStarted).toBe(3);
    } finally {
      await extractor.close();
    }
  });

  it('fails one waiting document when its thread exits while it loads, with no error; the others are read by a fresh thread', async () => {
    const extractor = new PdfExtractor({}, 1);
    try {
      const resume = await resumePdf();
      // Ended before it is ready: piscina reports no error for a thread that exits holding no job.
      process.once('worker', (worker: Worker) => void worker.terminate());
      const results = await Promise.allSettled([extractor.extract(resume), extractor.extract(resume), extractor.extract(resume)]);
      expect(results[0]).toMatchObject({ status: 'rejected', reason: { message: 'PDF worker failed to start: the thread exited' } });
      expect(results.slice(1)).toEqual([
        { status: 'fulfilled', value: expect.objectContaining({ ok: true, text: RESUME_TEXT }) },
        { status: 'fulfilled', value: expect.objectContaining({ ok: true, text: RESUME_TEXT }) },
      ]);
      expect(extractor.workersStarted).toBe(1);
    } finally {
      await extractor.close();
    }
  }, 60_000);

  it('serves the document queued behind one that timed out (its thread killed)', async () => {
    const extractor = new PdfExtractor({ timeoutMs: 1000, maxWorkerMemoryMb: 1024 }, 1);
    try {
      const resume = await resumePdf();
      const [slow, queued] = await Promise.all([extractor.extract(streamBombPdf(400)), extractor.extract(resume)]);
      expect(slow).toEqual({ ok: false, reason: 'timeout' });
      // Served by a fresh thread rather than left waiting; on a loaded machine its own second can
      // run out too, which is still an answer.
      expect([true, 'timeout']).toContain(queued.ok ? queued.text === RESUME_TEXT : queued.reason);
      expect(extractor.workersStarted).toBe(2);
    } finally {
      await extractor.close();
    }
  }, 60_000);

  it('fails each waiting document with the cause when no thread can start, none left waiting', async () => {
    // 2 MB of heap cannot even load pdf.js.
    const extractor = new PdfExtractor({ maxWorkerMemoryMb: 2 }, 1);
    try {
      const resume = await resumePdf();
      const results = await Promise.allSettled([extractor.extract(resume), extractor.extract(resume), extractor.extract(resume)]);
      for (const result of results) expect(result).toMatchObject({ status: 'rejected', reason: { message: expect.stringMatching(/PDF worker failed to start/) } });
      expect(extractor.workersStarted).toBe(0);
    } finally {
      await extractor.close();
    }
  }, 60_000);
});
