import type { Db } from '../db/client.ts';
import { enqueueJob, type Job } from '../jobs/queue.ts';
import type { PdfExtractor, PdfLimits } from '../personality/pdf/index.ts';
import { sniffPdf } from '../personality/pdf/index.ts';
import type { TextPool } from '../personality/text/pool.ts';
import type { TraitEstimate } from '../personality/types.ts';
import { AppError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { sizeText } from '../shared/size.ts';
import { findAnalysis, finishAnalysis, insertPdfAnalysis, pendingAnalyses, readAnalysisInput, type Analysis } from './repository.ts';

/** The contract's words for text or a PDF that yields no personality (a 200, not an error). */
export const NO_PERSONALITY_MESSAGE = 'Content did not yield a personality';

/** Longest text accepted for analysis, in characters (about 15,000 words). */
export const MAX_TEXT_CHARS = 100_000;

export const PDF_JOB = 'pdf_analysis';

/** A PDF analysis takes well under a second to a few seconds, so a short wait usually frees room. */
const PENDING_RETRY_SECONDS = 5;

/**
 * Group A texts are labelled (resume or profile: titles, experience, skills, bio): labels and
 * boilerplate are stripped so only the author's words count. Null when no personality.
 */
/** An estimate, or why there is none (`text_too_short`, `text_junk`, `text_unsupported_language`). */
export type SubmittedTextResult = { estimate: TraitEstimate } | { estimate: null; reason: string };

export async function analyzeSubmittedText(pool: TextPool, text: string): Promise<SubmittedTextResult> {
  if (text.length > MAX_TEXT_CHARS) {
    throw new AppError('payload_too_large', `The text has ${text.length} characters; the limit is ${MAX_TEXT_CHARS}.`);
  }
  // A long text goes to a worker thread; a full queue is a 503 `unavailable` with Retry-After.
  const result = await pool.analyze(text, { labelled: true, evidence: true });
  return result.ok ? { estimate: result.estimate } : { estimate: null, reason: `text_${result.reason}` };
}

export interface PdfDeps {
  db: Db;
  pdfLimits: PdfLimits;
  /** Unfinished PDF analyses one token may have; the next upload is refused until one ends. */
  maxPending: number;
  /** Tells the in-process worker, if any, that a job is waiting. */
  wakeWorker: () => void;
}

export function pdfTooLarge(maxBytes: number): AppError {
  return new AppError('payload_too_large', `The PDF is larger than ${sizeText(maxBytes)}.`);
}

/**
 * Refuses an upload while the token has `maxPending` PDF analyses in progress. Called again
 * before the body is read, so a refused caller does not send 10 MB for nothing.
 */
export async function checkRoomForPdf(db: Db, tokenId: string, maxPending: number): Promise<void> {
  const pending = await pendingAnalyses(db, tokenId);
  if (pending >= maxPending) {
    throw new AppError(
      'rate_limited',
      `This token already has ${pending} PDF analyses in progress, the most it may have at once; upload again when one has finished.`,
      { retryAfterSeconds: PENDING_RETRY_SECONDS },
    );
  }
}

/** Checks what can be checked at once, stores the upload and queues its analysis. */
export async function submitPdf(deps: PdfDeps, tokenId: string, bytes: Uint8Array): Promise<string> {
  if (bytes.length === 0) throw new AppError('bad_request', 'The uploaded file is empty.');
  if (bytes.length > deps.pdfLimits.maxBytes) throw pdfTooLarge(deps.pdfLimits.maxBytes);
  if (!sniffPdf(bytes)) throw new AppError('unsupported_media_type', 'The uploaded file is not a PDF.');
  await checkRoomForPdf(deps.db, tokenId, deps.maxPending);
  const id = newId('an');
  await deps.db.transaction(async (tx) => {
    await insertPdfAnalysis(tx, id, tokenId, bytes);
    await enqueueJob(tx, PDF_JOB, { analysis_id: id });
  });
  deps.wakeWorker();
  return id;
}

export async function getAnalysis(db: Db, tokenId: string, id: string): Promise<Analysis> {
  const analysis = await findAnalysis(db, id, tokenId);
  if (!analysis) throw new AppError('not_found', `No analysis with id ${id}.`);
  return analysis;
}

function analysisIdOf(job: Job): string {
  const id = job.payload.analysis_id;
  if (typeof id !== 'string') throw new Error('pdf_analysis job without analysis_id');
  return id;
}

/** The background step: PDF → text (in a worker thread, bounded) → estimate (long texts in a text worker). */
export function pdfAnalysisHandler(deps: { db: Db; pdf: PdfExtractor; text: TextPool }) {
  return {
    async run(job: Job): Promise<void> {
      const id = analysisIdOf(job);
      const stored = await readAnalysisInput(deps.db, id);
      if (!stored || stored.status !== 'processing' || !stored.input) return;
      const extracted = await deps.pdf.extract(new Uint8Array(stored.input));
      if (!extracted.ok) {
        await finishAnalysis(deps.db, id, { failureReason: `pdf_${extracted.reason}` });
        return;
      }
      const result = await deps.text.analyze(extracted.text, { labelled: true, evidence: true });
      await finishAnalysis(deps.db, id, result.ok ? { estimate: result.estimate } : { failureReason: `text_${result.reason}` });
    },
    /** After repeated failures the caller still gets an answer: no personality. */
    async giveUp(job: Job): Promise<void> {
      await finishAnalysis(deps.db, analysisIdOf(job), { failureReason: 'pdf_unreadable' });
    },
  };
}
