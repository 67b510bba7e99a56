/**
 * The extraction itself: bytes in, text or a reason out. Runs inside the worker (worker.ts)
 * and never throws; the caller's limits arrive in `options`. pdf.js takes ownership of
 * (detaches) `bytes`, so pass a copy you will not use again.
 */
import { getDocumentProxy } from 'unpdf';
import { joinPages, layoutPage, type PositionedText } from './layout.ts';
import { sniffPdf } from './sniff.ts';
import { decodedSizeExceeds } from './stream-guard.ts';
import type { ExtractOptions, PdfTextResult } from './types.ts';

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/**
 * `recycle` asks for a fresh thread: the text stream of a page was abandoned mid-way, and
 * pdf.js (which keeps shared state per thread) stalls later documents after that.
 */
export interface ExtractOutcome {
  result: PdfTextResult;
  recycle: boolean;
}

const fail = (reason: Extract<PdfTextResult, { ok: false }>['reason']): ExtractOutcome => ({
  result: { ok: false, reason },
  recycle: false,
});

export async function extractPdfText(bytes: Uint8Array, options: ExtractOptions): Promise<ExtractOutcome> {
  if (bytes.length === 0) return fail('empty');
  if (!sniffPdf(bytes)) return fail('not_pdf');
  if (await decodedSizeExceeds(bytes, options.maxDecodedBytes)) return fail('too_large');

  let pdf: PdfDocument;
  try {
    pdf = await getDocumentProxy(bytes, {
      verbosity: 0, // errors only: a malformed upload must not flood the service log
      isEvalSupported: false,
      disableFontFace: true,
      stopAtErrors: false,
    });
  } catch (error) {
    // pdf.js asks for a password with a PasswordException; everything else (truncated
    // file, no xref, garbage after the header) means we cannot read it.
    return fail(errorName(error) === 'PasswordException' ? 'encrypted' : 'unreadable');
  }
  const outcome = await readPages(pdf, options);
  // After an abandoned stream destroy() can hang; the thread is discarded instead.
  if (!outcome.recycle) await pdf.destroy().catch(() => undefined);
  return outcome;
}

async function readPages(pdf: PdfDocument, options: ExtractOptions): Promise<ExtractOutcome> {
  const pages = pdf.numPages;
  if (pages > options.hardPageCap) return fail('too_many_pages');
  const toRead = Math.min(pages, options.maxPages);
  const texts: string[] = [];
  let chars = 0;
  let failed = 0;
  let truncated = toRead < pages;
  let recycle = false;
  for (let n = 1; n <= toRead; n++) {
    if (chars >= options.maxTextChars) {
      truncated = true; // pages left unread
      break;
    }
    let page: PageText;
    try {
      page = await pageText(pdf, n, options.maxTextChars - chars);
    } catch {
      // One broken page should not cost the rest of the document.
      failed++;
      continue;
    }
    texts.push(page.text);
    chars += page.text.length + 2; // + the page break
    if (page.abandoned) {
      truncated = true;
      recycle = true;
      break;
    }
  }
  if (toRead > 0 && failed === toRead) return fail('unreadable');
  let text = joinPages(texts);
  if (text.length > options.maxTextChars) {
    text = text.slice(0, options.maxTextChars);
    truncated = true;
  }
  return { result: { ok: true, text, pages, truncated }, recycle };
}

interface PageText {
  text: string;
  /** Reading stopped at the character budget, before pdf.js finished the page. */
  abandoned: boolean;
}

/**
 * Text of one page, streamed, stopping once `budget` characters have arrived: a page of a
 * million text operations otherwise takes pdf.js tens of seconds. Cancelling the stream
 * throws inside pdf.js, so it is only let go of, and the caller recycles the thread.
 */
async function pageText(pdf: PdfDocument, pageNumber: number, budget: number): Promise<PageText> {
  const page = await pdf.getPage(pageNumber);
  const reader = page.streamTextContent().getReader();
  const items: PositionedText[] = [];
  let chars = 0;
  for (;;) {
    if (chars > budget) {
      reader.releaseLock();
      return { text: layoutPage(items), abandoned: true };
    }
    const { done, value } = await reader.read();
    if (done) break;
    for (const item of textItems(value)) {
      items.push(item);
      chars += item.str.length;
    }
  }
  page.cleanup();
  return { text: layoutPage(items), abandoned: false };
}

/** The text items of one streamed chunk; pdf.js types the stream loosely, so check shape. */
function textItems(chunk: unknown): PositionedText[] {
  if (typeof chunk !== 'object' || chunk === null || !('items' in chunk) || !Array.isArray(chunk.items)) return [];
  const out: PositionedText[] = [];
  for (const item of chunk.items as unknown[]) {
    if (isPositionedText(item)) out.push(item);
  }
  return out;
}

function isPositionedText(item: unknown): item is PositionedText {
  if (typeof item !== 'object' || item === null) return false;
  const r = item as Record<string, unknown>;
  return (
    typeof r.str === 'string' &&
    Array.isArray(r.transform) &&
    typeof r.width === 'number' &&
    typeof r.height === 'number' &&
    typeof r.hasEOL === 'boolean'
  );
}

function errorName(error: unknown): string {
  return typeof error === 'object' && error !== null && 'name' in error && typeof error.name === 'string'
    ? error.name
    : '';
}
