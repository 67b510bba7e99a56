import { Readable } from 'node:stream';
import type { Db, Queryable } from '../db/client.ts';
import { enqueueJob, type Job } from '../jobs/queue.ts';
import type { PdfExtractor, PdfLimits } from '../personality/pdf/index.ts';
import { sniffPdf } from '../personality/pdf/index.ts';
import type { TextType } from '../personality/text/index.ts';
import type { TextPool } from '../personality/text/pool.ts';
import type { TraitEstimate } from '../personality/types.ts';
import { AppError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { sizeText } from '../shared/size.ts';
import {
  analysisStatus,
  findAnalysis,
  finishAnalysis,
  hasInputChunks,
  inputChunks,
  insertInputChunk,
  insertPdfAnalysis,
  pendingAnalyses,
  type Analysis,
} from './repository.ts';
import { emitWebhookEvents } from '../webhooks/events.ts';
import { UploadTooLarge, type SpooledUpload, type UploadSpool } from './spool.ts';

/** The contract's words for text or a PDF that yields no personality (a 200, not an error). */
export const NO_PERSONALITY_MESSAGE = 'Content did not yield a personality';

/** Longest text accepted for analysis, in characters (about 15,000 words). */
export const MAX_TEXT_CHARS = 100_000;

export const PDF_JOB = 'pdf_analysis';

/** A PDF analysis takes well under a second to a few seconds, so a short wait usually frees room. */
const PENDING_RETRY_SECONDS = 5;

/**
 * An estimate, or why there is none (`text_too_short`, `text_junk`, `text_unsupported_language`).
 * Read as every text is (analyzeText): labels and boilerplate set aside, then read as the kind of
 * writing the caller says it is (`text_type`) or, without one, the kind the text looks like.
 */
export type SubmittedTextResult = { estimate: TraitEstimate } | { estimate: null; reason: string };

export async function analyzeSubmittedText(pool: TextPool, text: string, textType?: TextType): Promise<SubmittedTextResult> {
  if (text.length > MAX_TEXT_CHARS) {
    throw new AppError('payload_too_large', `The text has ${text.length} characters; the limit is ${MAX_TEXT_CHARS}.`);
  }
  if (text.trim().length === 0) throw new AppError('bad_request', 'The text is empty: it holds nothing but whitespace.');
  // A long text goes to a worker thread; a full queue is a 503 `unavailable` with Retry-After.
  const result = await pool.analyze(text, { textType, evidence: true });
  return result.ok ? { estimate: result.estimate } : { estimate: null, reason: `text_${result.reason}` };
}

export interface PdfDeps {
  db: Db;
  pdfLimits: PdfLimits;
  /** Where uploads are written as they arrive and kept until their analysis ends. */
  spool: UploadSpool;
  /** Unfinished PDF analyses one token may have; the next upload is refused until one ends. */
  maxPending: number;
  /** Tells the in-process worker, if any, that a job is waiting. */
  wakeWorker: () => void;
}

export function pdfTooLarge(maxBytes: number): AppError {
  return new AppError('payload_too_large', `The PDF is larger than ${sizeText(maxBytes)}.`);
}

function noRoom(maxPending: number): AppError {
  return new AppError(
    'rate_limited',
    `This token has reached its limit of ${maxPending} PDF analyses in progress (uploads still arriving count too); upload again when one has finished.`,
    { retryAfterSeconds: PENDING_RETRY_SECONDS },
  );
}

/**
 * Refuses an upload while the token has `maxPending` PDF analyses in progress, counting the
 * uploads of the token this process is receiving now. Called before the body is read, so a
 * refused caller does not send 10 MB for nothing; submitPdf checks again, atomically, when it
 * records the upload.
 */
export async function checkRoomForPdf(db: Db, tokenId: string, maxPending: number, receiving = 0): Promise<void> {
  const pending = (await pendingAnalyses(db, tokenId)) + receiving;
  if (pending >= maxPending) throw noRoom(maxPending);
}

/** Seconds to wait when this process is receiving as many uploads as it takes at once. */
const BUSY_RETRY_SECONDS = 2;

/** The refusal of `UploadSpool.enter`: the process is full (503), or the token holds its share (429). */
export function tooManyUploads(refused: 'process' | 'token', spool: UploadSpool): AppError {
  if (refused === 'token') {
    return new AppError(
      'rate_limited',
      `This token is already sending ${spool.maxPerToken} uploads at once, the most one token may send to this server; send it again once one has arrived.`,
      { retryAfterSeconds: BUSY_RETRY_SECONDS },
    );
  }
  return new AppError('unavailable', `This server is receiving ${spool.maxAtOnce} uploads at once, the most it takes; send it again in a moment.`, {
    retryAfterSeconds: BUSY_RETRY_SECONDS,
  });
}

/** Pieces an upload is kept in on PostgreSQL: small enough to write, send and parse without a pause. */
const CHUNK_BYTES = 256 * 1024;

/** Any constant: the first half of the per-token advisory lock key around the pending count. */
const PENDING_LOCK_NAMESPACE = 727_274_005;

/**
 * Counts and inserts under a per-token transaction lock, so uploads arriving at the same moment
 * are admitted one after another and the cap holds exactly, on one process or several.
 */
async function admitPdf(tx: Queryable, tokenId: string, maxPending: number): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [PENDING_LOCK_NAMESPACE, tokenId]);
  const pending = await pendingAnalyses(tx, tokenId);
  if (pending >= maxPending) throw noRoom(maxPending);
}

/** Writes bytes already in memory (the CLI, tests) to the spool like an upload. */
async function spoolBytes(spool: UploadSpool, bytes: Uint8Array, maxBytes: number): Promise<SpooledUpload> {
  try {
    return await spool.receive(Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]), maxBytes);
  } catch (error) {
    if (error instanceof UploadTooLarge) throw pdfTooLarge(maxBytes);
    throw error;
  }
}

/**
 * Checks what can be checked at once, records the upload and queues its analysis. The upload
 * is a spooled file (the HTTP route streams it to disk) or bytes in hand.
 *
 * On the embedded database the file stays in the spool under the analysis id until the
 * analysis ends: only this process can run the job, and writing megabytes into the embedded
 * database would hold its single thread (and every request) for seconds. On PostgreSQL the
 * file is copied into the database in pieces of 256 KiB, read from disk one at a time, so a
 * worker on another machine can take the job and no process holds the whole upload in memory.
 */
export async function submitPdf(deps: PdfDeps, tokenId: string, input: Uint8Array | SpooledUpload): Promise<string> {
  const upload = input instanceof Uint8Array ? await spoolBytes(deps.spool, input, deps.pdfLimits.maxBytes) : input;
  try {
    if (upload.size === 0) throw new AppError('bad_request', 'The uploaded file is empty.');
    if (upload.size > deps.pdfLimits.maxBytes) throw pdfTooLarge(deps.pdfLimits.maxBytes);
    if (!sniffPdf(upload.head)) throw new AppError('unsupported_media_type', 'The uploaded file is not a PDF.');
    const id = newId('an');
    const inDatabase = deps.db.kind !== 'embedded';
    if (!inDatabase) await deps.spool.keep(upload, id);
    try {
      await deps.db.transaction(async (tx) => {
        await admitPdf(tx, tokenId, deps.maxPending);
        await insertPdfAnalysis(tx, id, tokenId);
        if (inDatabase) {
          let seq = 0;
          for await (const chunk of deps.spool.chunksOf(upload.file, CHUNK_BYTES)) await insertInputChunk(tx, id, seq++, chunk);
        }
        await enqueueJob(tx, PDF_JOB, { analysis_id: id }, tokenId);
      });
    } catch (error) {
      if (!inDatabase) await deps.spool.remove(id);
      throw error;
    }
    deps.wakeWorker();
    return id;
  } finally {
    // Gone already when kept under the analysis id; on PostgreSQL the database has it now.
    await deps.spool.discard(upload.file);
  }
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

/**
 * The spooled file of an analysis: here already (embedded database), or written to the spool
 * from the pieces in the database (PostgreSQL; the upload may have arrived on another machine).
 * Null when there is none (a spool directory emptied by hand).
 */
async function uploadFile(db: Db, spool: UploadSpool, id: string): Promise<string | null> {
  if (await spool.has(id)) return spool.pathOf(id);
  if (!(await hasInputChunks(db, id))) return null;
  return spool.restore(id, inputChunks(db, id));
}

/**
 * The background step: PDF → text (in a worker thread, which reads the file itself, bounded)
 * → estimate (long texts in a text worker). The upload's bytes never pass the event loop whole.
 */
export function pdfAnalysisHandler(deps: { db: Db; pdf: PdfExtractor; spool: UploadSpool; text: TextPool; wake?: () => void }) {
  const finish = async (id: string, outcome: Parameters<typeof finishAnalysis>[2]) => {
    // The outcome and its `analysis.finished` webhook are committed together.
    const queued = await deps.db.transaction(async (tx) => {
      const finished = await finishAnalysis(tx, id, outcome);
      if (!finished) return 0;
      return emitWebhookEvents(tx, [{ owner: { tokenId: finished.tokenId }, type: 'analysis.finished', data: { analysis_id: id, source: 'pdf', status: finished.status } }]);
    });
    if (queued > 0) deps.wake?.();
    // Only once the outcome is recorded: a crash before this still finds the file on restart.
    await deps.spool.remove(id);
  };
  return {
    async run(job: Job): Promise<void> {
      const id = analysisIdOf(job);
      if ((await analysisStatus(deps.db, id)) !== 'processing') {
        await deps.spool.remove(id);
        return;
      }
      const file = await uploadFile(deps.db, deps.spool, id);
      if (!file) return finish(id, { failureReason: 'pdf_unreadable' });
      const extracted = await deps.pdf.extractFile(file);
      if (!extracted.ok) return finish(id, { failureReason: `pdf_${extracted.reason}` });
      const result = await deps.text.analyze(extracted.text, { evidence: true });
      await finish(id, result.ok ? { estimate: result.estimate } : { failureReason: `text_${result.reason}` });
    },
    /** After repeated failures the caller still gets an answer: no personality. */
    async giveUp(job: Job): Promise<void> {
      await finish(analysisIdOf(job), { failureReason: 'pdf_unreadable' });
    },
  };
}
