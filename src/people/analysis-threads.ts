/**
 * An import's text analysis on worker threads, one batch ahead of the writes: while the main
 * thread writes batch N (PGlite runs on it), the threads read the texts of batch N+1, so the
 * model and the database share the machine's cores instead of taking turns on one.
 *
 * A batch goes to the threads in chunks of 50 people, not one task per person: a hand-over per
 * person cost more than the overlap gave (docs/benchmarks.md). Each thread is kept two chunks
 * deep; when the main thread has written batch N and asks for N+1's texts, it reads the chunks no
 * thread has begun itself instead of waiting (on two cores the model costs more than the writes,
 * so the thread that writes takes a share of the reading). Only the people
 * whose texts the write will read are sent: a look-up of the stored texts' hashes (outside the
 * batch's transaction, so only a hint) leaves out people whose texts are stored unchanged, so
 * importing an unchanged file again reads nothing. Whatever the hint missed (a row that an
 * earlier batch of the file changed) is read inline when the write asks for it; an estimate is a
 * function of the texts and the model alone, so where it is computed changes nothing stored.
 */
import { Piscina } from 'piscina';
import type { Queryable } from '../db/client.ts';
import { estimateVersion } from '../personality/shrink.ts';
import type { TextModel } from '../personality/text/model.ts';
import { workerEntry } from '../shared/worker-entry.ts';
import { analyzeTexts } from './analyze.ts';
import type { AnalysisWorkerData, ReadTexts } from './analysis-worker.ts';
import type { PersonInput, TextSample } from './person.ts';
import { textsHash, type UpsertOptions } from './upsert.ts';

const WORKER_URL = workerEntry(import.meta.url, './analysis-worker.ts', './analysis-worker-boot.mjs');

/** Texts read ahead (estimate and hash), by the texts array the write hands to `analyze` (the input's own). */
export type ReadAhead = ReadonlyMap<readonly TextSample[], ReadTexts>;

/** A batch's texts being read ahead; `result` reads what no thread has begun, then waits for the rest. */
export interface Reading {
  result(): Promise<ReadAhead>;
}

/**
 * People per task. Small enough that the main thread, once it has written the batch before,
 * takes what the threads have not begun; large enough that a hand-over costs little against
 * reading the texts (~50 × 0.4 ms).
 */
const CHUNK_PEOPLE = 50;

type StoredTextsRow = {
  email_normalized: string | null;
  linkedin_key: string | null;
  texts_hash: string | null;
  verified: boolean;
};

/** Where the import says its analysis threads failed (the service's logger). */
export interface ImportLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

/**
 * What failed, for the log: the error's class and SQLSTATE, and its message with anything quoted
 * or in brackets taken out (a database's message can quote a value: an email, a name), at most
 * 200 characters. Never the detail or the data.
 */
export function errorKind(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const code = 'code' in error && typeof error.code === 'string' ? ` ${error.code}` : '';
  const message = error.message.replace(/"[^"]*"|'[^']*'|\([^)]*\)|\[[^\]]*\]/g, '…').slice(0, 200);
  return `${error.name}${code}: ${message}`;
}

export class ImportAnalysis {
  /** Started by the first batch read ahead: a file of one batch is read inline, as before. */
  private pool: Piscina<TextSample[][], ReadTexts[]> | undefined;
  /** Set when a thread failed: the rest of the import reads inline. */
  private failed = false;
  private readonly modelVersion: string;

  constructor(
    private readonly model: TextModel,
    private readonly modelPath: string,
    private readonly threads: number,
    /** Told once, at the first failure: the operator sees why an import got slower, never whose rows. */
    private readonly logger?: ImportLog,
  ) {
    this.modelVersion = estimateVersion(model.version);
  }

  /**
   * Starts reading the texts of the people in `inputs` that the write will read: on the threads
   * now, and on the main thread for whatever no thread has begun when the write asks for them.
   */
  readAhead(db: Queryable, inputs: readonly PersonInput[]): Reading {
    const withTexts = inputs.filter((input) => input.texts.length > 0);
    const read = new Map<readonly TextSample[], ReadTexts>();
    const queue: PersonInput[][] = [];
    const threadsDone = this.failed || withTexts.length === 0 ? Promise.resolve() : this.readOnThreads(db, withTexts, queue, read);
    return {
      result: async () => {
        await threadsDone;
        // The rest is read here: the main thread would only wait for the threads (on two cores
        // the analysis is the slower half, so the writes' thread takes its share of it).
        for (let chunk = queue.pop(); chunk; chunk = queue.pop()) {
          for (const input of chunk) read.set(input.texts, { estimate: analyzeTexts(this.model, input.texts).estimate, hash: textsHash(input.texts) });
        }
        await Promise.all(this.inFlight.get(queue) ?? []);
        this.inFlight.delete(queue);
        return read;
      },
    };
  }

  /** Tasks handed to the threads, by the queue they took them from. */
  private readonly inFlight = new Map<PersonInput[][], Promise<void>[]>();

  /**
   * Looks up whose texts need reading, queues them in chunks, and keeps each thread two chunks
   * deep until the queue is empty. Settles once the queue is filled (not read).
   */
  private async readOnThreads(db: Queryable, inputs: readonly PersonInput[], queue: PersonInput[][], read: Map<readonly TextSample[], ReadTexts>): Promise<void> {
    try {
      const toRead = await this.textsToRead(db, inputs);
      if (toRead.length === 0) return;
      const pool = this.start();
      for (let i = 0; i < toRead.length; i += CHUNK_PEOPLE) queue.push(toRead.slice(i, i + CHUNK_PEOPLE));
      const pump = async () => {
        for (let chunk = queue.shift(); chunk && !this.failed; chunk = queue.shift()) {
          const results = await pool.run(chunk.map((input) => input.texts));
          chunk.forEach((input, i) => {
            const result = results[i];
            if (result) read.set(input.texts, result);
          });
        }
      };
      // Errors: fail() stops the pumps; what they did not read is read inline by the write.
      this.inFlight.set(queue, Array.from({ length: this.threads * 2 }, () => pump().catch((error: unknown) => this.fail(error))));
    } catch (error) {
      // A thread that cannot start or load the model, or a look-up that failed (the write's own
      // statements then fail and say why): the write reads these texts inline, as without threads.
      this.fail(error);
    }
  }

  /** The write's `analyze` and `hash`: what was read ahead where there is one, computed inline where not. */
  readWith(ready: ReadAhead): Pick<UpsertOptions, 'analyze' | 'hash'> {
    return {
      analyze: (texts) => {
        const read = ready.get(texts);
        return read ? { estimate: read.estimate, modelVersion: this.modelVersion } : analyzeTexts(this.model, texts);
      },
      hash: (texts) => ready.get(texts)?.hash ?? textsHash(texts),
    };
  }

  /** The rest of the import reads inline; the first failure is logged. */
  private fail(error: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.logger?.warn({ err_kind: errorKind(error) }, 'import: reading texts ahead on analysis threads failed; the rest of this import reads them on the main thread (slower, same rows stored)');
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
  }

  /** People new to the database, or whose stored texts differ and whose personality is not from the test. */
  private async textsToRead(db: Queryable, inputs: readonly PersonInput[]): Promise<PersonInput[]> {
    const emails = inputs.flatMap((i) => (i.emailNormalized ? [i.emailNormalized] : []));
    const keys = inputs.flatMap((i) => (i.linkedinKey ? [i.linkedinKey] : []));
    const stored = await db.query<StoredTextsRow>(
      'SELECT email_normalized, linkedin_key, texts_hash, verified FROM people WHERE email_normalized = ANY($1::text[]) OR linkedin_key = ANY($2::text[])',
      [emails, keys],
    );
    if (stored.length === 0) return [...inputs];
    const byEmail = new Map(stored.flatMap((row) => (row.email_normalized ? [[row.email_normalized, row] as const] : [])));
    const byKey = new Map(stored.flatMap((row) => (row.linkedin_key ? [[row.linkedin_key, row] as const] : [])));
    return inputs.filter((input) => {
      const byE = input.emailNormalized ? byEmail.get(input.emailNormalized) : undefined;
      const byK = input.linkedinKey ? byKey.get(input.linkedinKey) : undefined;
      if (byE && byK && byE !== byK) return false; // two stored people: the row is skipped
      const target = byE ?? byK;
      return !target || (!target.verified && target.texts_hash !== textsHash(input.texts));
    });
  }

  private start(): Piscina<TextSample[][], ReadTexts[]> {
    if (this.pool) return this.pool;
    const workerData: AnalysisWorkerData = { modelPath: this.modelPath, modelVersion: this.model.version };
    this.pool = new Piscina<TextSample[][], ReadTexts[]>({
      filename: WORKER_URL.href,
      minThreads: this.threads,
      maxThreads: this.threads,
      // One chunk per thread at a time; the next batch's chunks wait in the queue.
      concurrentTasksPerWorker: 1,
      // Nothing inherited: the parent's flags (tsx, inspector, vitest's) are not for a worker.
      execArgv: [],
      workerData,
    });
    // A thread that dies while idle must not throw on the main thread; its task's rejection says why.
    this.pool.on('error', (error: unknown) => this.fail(error));
    return this.pool;
  }
}
