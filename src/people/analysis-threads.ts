/**
 * An import's text analysis on worker threads, one batch ahead of the writes: while the main
 * thread writes batch N (PGlite runs on it), the threads read the texts of batch N+1, so the
 * model and the database share the machine's cores instead of taking turns on one.
 *
 * A batch goes to the threads as a few large tasks (one per thread), not one per person: a
 * hand-over per person cost more than the overlap gave (docs/benchmarks.md). Only the people
 * whose texts the write will read are sent: a look-up of the stored texts' hashes (outside the
 * batch's transaction, so only a hint) leaves out people whose texts are stored unchanged, so
 * importing an unchanged file again reads nothing. Whatever the hint missed (a row that an
 * earlier batch of the file changed) is read inline when the write asks for it; an estimate is a
 * function of the texts and the model alone, so where it is computed changes nothing stored.
 *
 * The people of a task are shared with the import's own thread (analysis-worker.ts's
 * SharedChunk): when the write needs a batch that the threads have not finished, the import's
 * thread reads the people no thread has taken yet instead of waiting idle. So the work splits
 * itself by who is free: on two cores the threads read ~300 µs of text a person and the writes
 * cost ~270 µs, and without it the writes waited for the threads (docs/benchmarks.md, twelfth
 * session). A thread still starting (its first batch) leaves that batch to the import's thread.
 */
import { Piscina } from 'piscina';
import type { Queryable } from '../db/client.ts';
import { estimateVersion } from '../personality/shrink.ts';
import type { TextModel } from '../personality/text/model.ts';
import { workerEntry } from '../shared/worker-entry.ts';
import { analyzeTexts, readPerson, type ReadTexts } from './analyze.ts';
import type { AnalysisWorkerData, SharedChunk } from './analysis-worker.ts';
import type { PersonInput, TextSample } from './person.ts';
import { textsHash, type UpsertOptions } from './upsert.ts';

const WORKER_URL = workerEntry(import.meta.url, './analysis-worker.ts', './analysis-worker-boot.mjs');

/** Texts read ahead (estimate and hash), by the texts array the write hands to `analyze` (the input's own). */
export type ReadAhead = ReadonlyMap<readonly TextSample[], ReadTexts>;

const NOTHING_READ: ReadAhead = new Map();

/** A batch handed to the threads; `collect` gives its readings once the write needs them. */
export interface PendingRead {
  collect(): Promise<ReadAhead>;
}

const NOTHING_PENDING: PendingRead = { collect: async () => NOTHING_READ };

/** How long the import's thread reads people in one go before it lets the event loop turn. */
const INLINE_SLICE_MS = 8;

/** One thread's share of a batch: its task, and the people in it that the import's thread may take. */
interface Chunk {
  shared: SharedChunk;
  /** The thread's readings (null where the import's thread took the person), or null when it failed. */
  task: Promise<(ReadTexts | null)[] | null>;
}

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
  private pool: Piscina<SharedChunk, (ReadTexts | null)[]> | undefined;
  /** Set when a thread failed: the rest of the import reads inline. */
  private failed = false;
  private readonly modelVersion: string;
  /** People read on the import's own thread because no thread had taken them yet (test/people/import-threads.test.ts reads it). */
  readHere = 0;

  constructor(
    private readonly model: TextModel,
    private readonly modelPath: string,
    private readonly threads: number,
    /** Told once, at the first failure: the operator sees why an import got slower, never whose rows. */
    private readonly logger?: ImportLog,
  ) {
    this.modelVersion = estimateVersion(model.version);
  }

  /** Hands the people in `inputs` whose texts the write will read to the threads. */
  async readAhead(db: Queryable, inputs: readonly PersonInput[]): Promise<PendingRead> {
    const withTexts = inputs.filter((input) => input.texts.length > 0);
    if (withTexts.length === 0 || this.failed) return NOTHING_PENDING;
    let toRead: PersonInput[];
    try {
      toRead = await this.textsToRead(db, withTexts);
    } catch (error) {
      // A look-up that failed (the write's own statements then fail and say why): the write
      // reads these texts inline, as without threads.
      this.fail(error);
      return NOTHING_PENDING;
    }
    if (toRead.length === 0) return NOTHING_PENDING;
    let pool: Piscina<SharedChunk, (ReadTexts | null)[]>;
    try {
      pool = this.start();
    } catch (error) {
      this.fail(error);
      return NOTHING_PENDING;
    }
    const chunkSize = Math.ceil(toRead.length / this.threads);
    const chunks: Chunk[] = [];
    for (let i = 0; i < toRead.length; i += chunkSize) {
      const people = toRead.slice(i, i + chunkSize).map((input) => input.texts);
      const shared: SharedChunk = { people, next: new Int32Array(new SharedArrayBuffer(4)) };
      // A thread that cannot start or load the model fails its task: the import's thread reads
      // the people it did not take (collect), and the rest of the import reads inline.
      const task = pool.run(shared).then(
        (read: (ReadTexts | null)[]) => read,
        (error: unknown) => {
          this.fail(error);
          return null;
        },
      );
      chunks.push({ shared, task });
    }
    return { collect: () => this.collect(chunks) };
  }

  /**
   * A batch's readings: first the people no thread has taken, read here (a few milliseconds at
   * a time, letting the event loop turn between), then the threads' own.
   */
  private async collect(chunks: readonly Chunk[]): Promise<ReadAhead> {
    const ready = new Map<readonly TextSample[], ReadTexts>();
    for (const { shared } of chunks) {
      let sliceStarted = performance.now();
      for (let i = Atomics.add(shared.next, 0, 1); i < shared.people.length; i = Atomics.add(shared.next, 0, 1)) {
        const texts = shared.people[i] ?? [];
        ready.set(texts, readPerson(this.model, texts));
        this.readHere += 1;
        if (performance.now() - sliceStarted < INLINE_SLICE_MS) continue;
        await new Promise((resolve) => setImmediate(resolve));
        sliceStarted = performance.now();
      }
    }
    for (const { shared, task } of chunks) {
      const read = await task;
      read?.forEach((reading, i) => {
        const texts = shared.people[i];
        if (reading && texts) ready.set(texts, reading);
      });
    }
    return ready;
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

  private start(): Piscina<SharedChunk, (ReadTexts | null)[]> {
    if (this.pool) return this.pool;
    const workerData: AnalysisWorkerData = { modelPath: this.modelPath, modelVersion: this.model.version };
    this.pool = new Piscina<SharedChunk, (ReadTexts | null)[]>({
      filename: WORKER_URL.href,
      minThreads: this.threads,
      maxThreads: this.threads,
      // A thread holds the next batch's chunk too, so it goes on to it without waiting for this
      // thread's event loop (busy in the database while a batch is written) to hand it over.
      concurrentTasksPerWorker: 2,
      // Nothing inherited: the parent's flags (tsx, inspector, vitest's) are not for a worker.
      execArgv: [],
      workerData,
    });
    // A thread that dies while idle must not throw on the main thread; its task's rejection says why.
    this.pool.on('error', (error: unknown) => this.fail(error));
    return this.pool;
  }
}
