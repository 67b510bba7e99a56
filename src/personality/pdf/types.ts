/** Limits and result shapes shared by the extractor (main thread) and its worker. */

export interface PdfLimits {
  /** Larger uploads are refused before any parsing ('too_large'). */
  maxBytes: number;
  /** Pages read; a longer document is read up to here and marked truncated. */
  maxPages: number;
  /** Wall-clock budget of one extraction once a worker has it; the worker is killed after. */
  timeoutMs: number;
  /** Text kept; more is cut and marked truncated. */
  maxTextChars: number;
  /**
   * JS heap of each worker (V8 old generation). Decoded PDF streams live outside that heap,
   * so they get their own budget of half this, checked before pdf.js sees the file.
   */
  maxWorkerMemoryMb: number;
}

export const DEFAULT_PDF_LIMITS: Readonly<PdfLimits> = Object.freeze({
  maxBytes: 10 * 1024 * 1024,
  maxPages: 50,
  timeoutMs: 10_000,
  maxTextChars: 200_000,
  maxWorkerMemoryMb: 256,
});

/**
 * A document declaring more than maxPages × this many pages is refused ('too_many_pages')
 * rather than read in part: nothing a person writes about themselves is that long, so it is
 * a dump or a bomb, and a partial profile of it would mislead.
 */
export const HARD_PAGE_CAP_FACTOR = 5;

export type PdfFailureReason =
  | 'empty'
  | 'not_pdf'
  | 'too_large'
  | 'encrypted'
  | 'unreadable'
  | 'too_many_pages'
  | 'timeout';

/**
 * `pages` is the page count the document declares; `truncated` says that text was left out
 * (pages past maxPages, or text past maxTextChars). A PDF with no text layer (a scan) is
 * ok with empty text: the text path then answers "no personality".
 */
export type PdfTextResult =
  | { ok: true; text: string; pages: number; truncated: boolean }
  | { ok: false; reason: PdfFailureReason };

/** What the worker needs to know besides the bytes. */
export interface ExtractOptions {
  maxPages: number;
  hardPageCap: number;
  maxTextChars: number;
  maxDecodedBytes: number;
}

/** The document itself, or a file the worker reads (so its bytes never cross the main thread). */
export type PdfSource = { bytes: Uint8Array } | { file: string };

/** What the pool hands a worker thread (piscina's task). */
export type PdfTask =
  | {
    kind: 'extract';
    /** The extractor's job number, echoed in the thread's `PdfJobStarted` notice. */
    id: number;
    source: PdfSource;
    options: ExtractOptions;
    /** After this many documents the thread asks to be replaced (pdf.js caches per thread). */
    recycleAfterJobs: number;
  }
  /** Does nothing: run to make piscina start threads (warm) or serve its queue again. */
  | { kind: 'ping' };

/**
 * A thread's answer. `recycle`: replace this thread now (pdf.js may be damaged, or it has read
 * its share of documents); `threadId` names it. `retired`: the thread already asked to be
 * replaced and read nothing; the job goes to another thread.
 */
export type PdfReply =
  | { kind: 'done'; result: PdfTextResult; recycle: boolean; threadId: number }
  | { kind: 'retired' }
  | { kind: 'pong' };

/** Posted by a thread as it starts a job: the job's time limit runs from here, not from the queue. */
export interface PdfJobStarted {
  pdfJobStarted: number;
}
