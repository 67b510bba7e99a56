import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PdfExtractor } from '../../../src/personality/pdf/index.ts';
import {
  RESUME_PAGES,
  encryptedPdf,
  manyPagesPdf,
  manyTextItemsPdf,
  resumePdf,
  streamBombPdf,
} from './fixtures.ts';

const RESUME_TEXT = RESUME_PAGES.map((page) => page.map((line) => line.text).join('\n')).join('\n\n');

describe('PdfExtractor with default limits', () => {
  const extractor = new PdfExtractor({}, 1);
  let resume: Uint8Array;

  beforeAll(async () => {
    resume = await resumePdf();
    await extractor.warm();
  }, 30_000);
  afterAll(() => extractor.close());

  it('reads a two-page resume line by line, pages separated by a blank line', async () => {
    const result = await extractor.extract(resume);
    expect(result).toEqual({ ok: true, text: RESUME_TEXT, pages: 2, truncated: false });
  });

  it('leaves the caller’s bytes intact (the worker gets a copy)', async () => {
    const before = Buffer.from(resume).toString('base64');
    await extractor.extract(resume);
    expect(resume.byteLength).toBeGreaterThan(0);
    expect(Buffer.from(resume).toString('base64')).toBe(before);
  });

  it('reads a file on disk in the worker thread, with the same answers as for bytes', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rapport-extract-file-'));
    try {
      const file = (name: string, bytes: Uint8Array) => {
        writeFileSync(path.join(dir, name), bytes);
        return path.join(dir, name);
      };
      expect(await extractor.extractFile(file('resume.pdf', resume))).toEqual({ ok: true, text: RESUME_TEXT, pages: 2, truncated: false });
      expect(await extractor.extractFile(file('empty.pdf', new Uint8Array(0)))).toEqual({ ok: false, reason: 'empty' });
      expect(await extractor.extractFile(file('notes.txt', Buffer.from('just some text, not a PDF')))).toEqual({ ok: false, reason: 'not_pdf' });
      expect(await extractor.extractFile(path.join(dir, 'gone.pdf'))).toEqual({ ok: false, reason: 'unreadable' });
      const tooBig = new PdfExtractor({ maxBytes: 1000 }, 1);
      expect(await tooBig.extractFile(file('big.pdf', resume))).toEqual({ ok: false, reason: 'too_large' });
      await tooBig.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers empty, not_pdf and too_large without a worker', async () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const random = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 251);
    expect(await extractor.extract(new Uint8Array(0))).toEqual({ ok: false, reason: 'empty' });
    expect(await extractor.extract(png)).toEqual({ ok: false, reason: 'not_pdf' });
    expect(await extractor.extract(random)).toEqual({ ok: false, reason: 'not_pdf' });

    const small = new PdfExtractor({ maxBytes: 1000 });
    expect(await small.extract(resume)).toEqual({ ok: false, reason: 'too_large' });
    expect(small.workersStarted).toBe(0);
    await small.close();
  });

  it('calls a truncated file unreadable', async () => {
    // pdf-lib writes the xref (and object streams) at the end, so half a file has no
    // recoverable structure; pdf.js's recovery would be used if it had.
    const half = resume.slice(0, Math.floor(resume.length / 2));
    expect(await extractor.extract(half)).toEqual({ ok: false, reason: 'unreadable' });
    expect(await extractor.extract(Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type'))).toEqual({
      ok: false,
      reason: 'unreadable',
    });
  });

  it('recognises a password-protected file', async () => {
    expect(await extractor.extract(encryptedPdf())).toEqual({ ok: false, reason: 'encrypted' });
  });

  // How quickly it refuses them is measured by `npm run bench` (bench/worker-threads.ts).
  it('refuses 3,000 pages, without reading them', async () => {
    expect(await extractor.extract(manyPagesPdf(3000))).toEqual({ ok: false, reason: 'too_many_pages' });
  });

  it('reads the first maxPages pages of a longer document and says it is truncated', async () => {
    const result = await extractor.extract(manyPagesPdf(60));
    expect(result.ok && { pages: result.pages, truncated: result.truncated }).toEqual({ pages: 60, truncated: true });
    expect(result.ok && result.text.split('\n\n')).toHaveLength(50);
  });

  it('refuses a decompression bomb (200 MB of zeros in a 1 MB file) before pdf.js inflates it', async () => {
    const bomb = streamBombPdf(200);
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    // How quickly: `npm run bench` (bench/worker-threads.ts).
    expect(await extractor.extract(bomb)).toEqual({ ok: false, reason: 'too_large' });
    expect(await extractor.extract(resume)).toMatchObject({ ok: true, text: RESUME_TEXT });
  });

  it('serves requests queued behind a busy worker, in any mix', async () => {
    const inputs = [resume, encryptedPdf(), resume, manyPagesPdf(3000), resume];
    const results = await Promise.all(inputs.map((bytes) => extractor.extract(bytes)));
    expect(results.map((r) => (r.ok ? r.text === RESUME_TEXT : r.reason))).toEqual([
      true,
      'encrypted',
      true,
      'too_many_pages',
      true,
    ]);
  });

  it('reuses its worker', async () => {
    const before = extractor.workersStarted;
    for (let i = 0; i < 5; i++) await extractor.extract(resume);
    expect(extractor.workersStarted).toBe(before);
  });
});

describe('PdfExtractor limits', () => {
  it('cuts text at maxTextChars, then keeps working', async () => {
    const extractor = new PdfExtractor({ maxTextChars: 60 });
    const resume = await resumePdf();
    const result = await extractor.extract(resume);
    expect(result).toEqual({ ok: true, text: RESUME_TEXT.slice(0, 60), pages: 2, truncated: true });
    // Stopping mid-page retires that worker; the next request gets a fresh one.
    expect(await extractor.extract(resume)).toMatchObject({ ok: true, truncated: true });
    await extractor.close();
  }, 30_000);

  it('times out a slow document, kills the worker, and the next request still works', async () => {
    // 400 MB of zeros passes the decoded-size check (half the worker's 1 GB), which inflates it
    // to count, and pdf.js inflates it again: seconds, over ten times the time allowed, so a
    // faster machine cannot finish it either.
    const extractor = new PdfExtractor({ timeoutMs: 300, maxWorkerMemoryMb: 1024 });
    await extractor.warm();
    // Only the time limit answers 'timeout': left to run, the document would end otherwise.
    expect(await extractor.extract(streamBombPdf(400))).toEqual({ ok: false, reason: 'timeout' });
    // The next request gets a fresh worker. Its threads run at nice 10, so on a loaded 2-core
    // machine (the rest of the suite at nice 0) even a small document can pass 300 ms: such a
    // try times out too, kills its worker like the first, and the next one is tried.
    const resume = await resumePdf();
    let next = await extractor.extract(resume);
    let timeouts = 1;
    while (!next.ok && next.reason === 'timeout' && timeouts < 10) {
      timeouts += 1;
      next = await extractor.extract(resume);
    }
    expect(next).toMatchObject({ ok: true, text: RESUME_TEXT });
    expect(extractor.workersStarted).toBe(timeouts + 1);
    await extractor.close();
  }, 30_000);

  it('answers unreadable when a document exhausts the worker heap, and recovers', async () => {
    const extractor = new PdfExtractor({ maxWorkerMemoryMb: 16, maxTextChars: 10_000_000, timeoutMs: 20_000 });
    expect(await extractor.extract(manyTextItemsPdf(100_000))).toEqual({ ok: false, reason: 'unreadable' });
    expect(await extractor.extract(await resumePdf())).toMatchObject({ ok: true, text: RESUME_TEXT });
    await extractor.close();
  }, 30_000);

  it('rejects (a broken setup, not a bad file) when no worker can start', async () => {
    // 2 MB of heap cannot even load pdf.js.
    const extractor = new PdfExtractor({ maxWorkerMemoryMb: 2 });
    await expect(extractor.extract(await resumePdf())).rejects.toThrow(/PDF worker failed to start/);
    await expect(extractor.warm()).rejects.toThrow(/PDF worker failed to start/);
    await extractor.close();
  });

  it('rejects requests after close()', async () => {
    const extractor = new PdfExtractor();
    const pending = expect(extractor.extract(await resumePdf())).rejects.toThrow(/closed/);
    await extractor.close();
    await pending;
    await expect(extractor.extract(await resumePdf())).rejects.toThrow(/closed/);
  });
});
