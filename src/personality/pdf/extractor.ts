/**
 * PDF text extraction on a piscina pool of worker threads running pdf.js. Starting a thread
 * costs about 0.2-0.5 s (tsx and pdf.js load), more than the 100 ms budget for a resume, so
 * threads are reused while there is work; one idle for `idleMs` leaves (piscina's idleTimeout),
 * and none starts before the first document.
 *
 * What piscina does: starting threads on demand up to `poolSize`, the ready handshake (a thread
 * takes work once pdf.js is loaded and warmed up), the heap limit (resourceLimits), idle exit,
 * and the watchdog's kill: a job's AbortSignal, aborted while the job runs, terminates its
 * thread, which stops even a synchronous pdf.js loop.
 *
 * What stays here, and why (piscina 5.3):
 * - The queue. After piscina terminates a thread (an aborted job, a crash) it starts a new one
 *   only up to `minThreads`; with `minThreads: 0` (no thread before the first document) the jobs
 *   left in its queue would wait for the next `run()`. So jobs wait here and go to piscina only
 *   when a thread is free or can be started: a job handed over always gets a thread.
 * - The time limit starts when a thread takes the job (its `PdfJobStarted` notice), not at
 *   `run()`: a job must not time out while a fresh thread loads pdf.js.
 * - Recycling: piscina has no "replace after N tasks" option. A thread says so in its answer
 *   (pdf.js in doubt, or RECYCLE_AFTER_JOBS documents read) and is terminated here by its
 *   threadId once idle; a job piscina handed it meanwhile is answered `retired` and sent again.
 * - A thread that cannot start: piscina reports it as an 'error' event and then leaves its
 *   queue waiting; one waiting job fails with the cause, and the next attempt is started for
 *   the others (one failed start per job, never a respawn loop). A thread that exits while it
 *   loads without an error is reported only as destroyed ('workerDestroy'): the same rule.
 */
import { stat } from 'node:fs/promises';
import { Piscina } from 'piscina';
import { workerEntry } from '../../shared/worker-entry.ts';
import { sniffPdf } from './sniff.ts';
import {
  DEFAULT_PDF_LIMITS,
  HARD_PAGE_CAP_FACTOR,
  type ExtractOptions,
  type PdfJobStarted,
  type PdfLimits,
  type PdfReply,
  type PdfSource,
  type PdfTask,
  type PdfTextResult,
} from './types.ts';

/** pdf.js caches fonts and objects per thread; a fresh thread now and then bounds that. */
const RECYCLE_AFTER_JOBS = 200;
/** A thread with nothing to do for this long exits; the next document starts one again. */
export const PDF_THREAD_IDLE_MS = 60_000;
/** Hand-overs of one job that ended on a thread before it started reading (see onFailure). */
const MAX_HANDOVERS = 3;
const WORKER_URL = workerEntry(import.meta.url, './worker.ts', './worker-boot.mjs');

export interface PdfExtractorOptions {
  /** How long an idle thread is kept (default PDF_THREAD_IDLE_MS). */
  idleMs?: number;
  /** Documents a thread reads before it is replaced (default RECYCLE_AFTER_JOBS). */
  recycleAfterJobs?: number;
}

interface Job {
  id: number;
  source: PdfSource;
  resolve: (result: PdfTextResult) => void;
  reject: (error: Error) => void;
  /** Of the current hand-over to piscina; a settled older one is ignored. */
  controller: AbortController | undefined;
  handovers: number;
  /** A thread has taken it (its time limit runs). */
  started: boolean;
  timer: NodeJS.Timeout | undefined;
  /** Why this extractor aborted it: the time limit, or no thread could start. */
  abortedFor: { timeout: true } | { failure: Error } | undefined;
}

const isPdfJobStarted = (message: unknown): message is PdfJobStarted =>
  typeof message === 'object' && message !== null && typeof (message as Partial<PdfJobStarted>).pdfJobStarted === 'number';

export class PdfExtractor {
  readonly limits: Readonly<PdfLimits>;
  private readonly poolSize: number;
  private readonly idleMs: number;
  private readonly recycleAfterJobs: number;
  private readonly options: ExtractOptions;
  /** Made on the first document (or warm()): a service that reads no PDF holds no thread. */
  private pool: Piscina<PdfTask, PdfReply> | undefined;
  /** Waiting for a free thread, oldest first. */
  private readonly queue: Job[] = [];
  /** Handed to piscina, by id, oldest first. */
  private readonly running = new Map<number, Job>();
  /** Threads terminated on purpose (recycle) and not yet reported gone. */
  private readonly recycled = new Set<number>();
  private nextId = 1;
  private started = 0;
  private closed = false;

  constructor(limits: Partial<PdfLimits> = {}, poolSize = 1, options: PdfExtractorOptions = {}) {
    this.limits = Object.freeze({ ...DEFAULT_PDF_LIMITS, ...limits });
    this.poolSize = Math.max(1, Math.floor(poolSize));
    this.idleMs = options.idleMs ?? PDF_THREAD_IDLE_MS;
    this.recycleAfterJobs = Math.max(1, options.recycleAfterJobs ?? RECYCLE_AFTER_JOBS);
    this.options = {
      maxPages: this.limits.maxPages,
      hardPageCap: this.limits.maxPages * HARD_PAGE_CAP_FACTOR,
      maxTextChars: this.limits.maxTextChars,
      // Half the heap limit: pdf.js grows decode buffers by doubling, so this keeps its
      // off-heap memory near maxWorkerMemoryMb too.
      maxDecodedBytes: (this.limits.maxWorkerMemoryMb * 1024 * 1024) / 2,
    };
  }

  /** Worker threads that started (loaded pdf.js) so far, replacements included. */
  get workersStarted(): number {
    return this.started;
  }

  /** Worker threads there now, starting or ready: none before the first document or once idle. */
  get threadCount(): number {
    return this.pool?.threads.length ?? 0;
  }

  /**
   * Resolves with text or a reason; never rejects for anything about the file. Rejects only
   * when the extractor is closed or a worker cannot start at all (a broken install).
   */
  extract(bytes: Uint8Array): Promise<PdfTextResult> {
    if (this.closed) return Promise.reject(new Error('PdfExtractor is closed'));
    // Cheap refusals stay on this thread and never wait in the queue.
    if (bytes.length === 0) return Promise.resolve({ ok: false, reason: 'empty' });
    if (bytes.length > this.limits.maxBytes) return Promise.resolve({ ok: false, reason: 'too_large' });
    if (!sniffPdf(bytes)) return Promise.resolve({ ok: false, reason: 'not_pdf' });
    // A private copy (cloned to the thread, kept should the job be handed over again): the
    // caller's bytes are never read after this call.
    return this.enqueue({ bytes: new Uint8Array(bytes) });
  }

  /**
   * Like extract(), for a file on disk: the worker thread reads it, so a 10 MB upload is never
   * read, copied or collected on the caller's thread. A missing file is 'unreadable'.
   */
  async extractFile(file: string): Promise<PdfTextResult> {
    if (this.closed) throw new Error('PdfExtractor is closed');
    const size = (await stat(file).catch(() => null))?.size;
    if (size === undefined) return { ok: false, reason: 'unreadable' };
    if (size === 0) return { ok: false, reason: 'empty' };
    if (size > this.limits.maxBytes) return { ok: false, reason: 'too_large' };
    // The worker checks the signature when it has the bytes.
    return this.enqueue({ file });
  }

  /** Starts the whole pool now and waits until every thread is ready (tests and benchmarks). */
  async warm(): Promise<void> {
    if (this.closed) throw new Error('PdfExtractor is closed');
    const pool = this.threads();
    const missing = this.poolSize - pool.threads.length;
    if (missing <= 0) return;
    const target = this.started + missing;
    await new Promise<void>((resolve, reject) => {
      const onReady = () => {
        if (this.started < target) return;
        done();
        resolve();
      };
      const onError = (error: Error) => {
        done();
        reject(startFailure(error));
      };
      const done = () => {
        pool.off('workerCreate', onReady);
        pool.off('error', onError);
      };
      pool.on('workerCreate', onReady);
      pool.on('error', onError);
      // Each ping waiting in piscina's queue makes it start one more thread, up to poolSize.
      for (let i = 0; i < missing; i++) this.ping(pool);
    });
  }

  /** Stops every worker so the process can exit; pending and queued requests reject. */
  async close(): Promise<void> {
    this.closed = true;
    const error = new Error('PdfExtractor closed');
    for (const job of [...this.queue.splice(0), ...this.running.values()]) {
      clearTimeout(job.timer);
      job.reject(error);
    }
    this.running.clear();
    await this.pool?.destroy();
  }

  private enqueue(source: PdfSource): Promise<PdfTextResult> {
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextId++, source, resolve, reject, controller: undefined, handovers: 0, started: false, timer: undefined, abortedFor: undefined };
      this.queue.push(job);
      this.pump();
    });
  }

  private pump(): void {
    while (!this.closed && this.running.size < this.poolSize) {
      const job = this.queue.shift();
      if (job === undefined) return;
      this.running.set(job.id, job);
      this.handOver(job);
    }
  }

  private handOver(job: Job): void {
    const controller = new AbortController();
    job.controller = controller;
    job.handovers += 1;
    const task: PdfTask = { kind: 'extract', id: job.id, source: job.source, options: this.options, recycleAfterJobs: this.recycleAfterJobs };
    void this.threads()
      .run(task, { signal: controller.signal })
      .then(
        (reply) => job.controller === controller && this.onReply(job, reply),
        (error: unknown) => job.controller === controller && this.onFailure(job, error),
      );
  }

  private onReply(job: Job, reply: PdfReply): void {
    if (reply.kind === 'done') {
      // Before the next job is handed over, so that it is not given this thread.
      if (reply.recycle) this.recycle(reply.threadId);
      this.finish(job);
      job.resolve(reply.result);
    } else {
      this.handOverAgain(job, new Error('no thread took the job'));
    }
  }

  private onFailure(job: Job, error: unknown): void {
    if (this.closed) return; // rejected by close()
    const reason = job.abortedFor;
    if (reason !== undefined && 'timeout' in reason) {
      this.finish(job);
      job.resolve({ ok: false, reason: 'timeout' });
    } else if (reason !== undefined) {
      this.finish(job);
      job.reject(reason.failure);
    } else if (job.started) {
      // Its thread died while reading it: most likely the document exhausted the thread's heap.
      this.finish(job);
      job.resolve({ ok: false, reason: 'unreadable' });
    } else {
      // Its thread ended before reading it (replaced by recycle() just then): another one reads it.
      this.handOverAgain(job, error instanceof Error ? error : new Error(String(error)));
    }
  }

  private handOverAgain(job: Job, cause: Error): void {
    if (job.handovers < MAX_HANDOVERS) return this.handOver(job);
    this.finish(job);
    job.reject(startFailure(cause));
  }

  private finish(job: Job): void {
    clearTimeout(job.timer);
    job.controller = undefined;
    this.running.delete(job.id);
    this.pump();
  }

  /** A thread took job `id`: its time limit starts. */
  private onStarted(id: number): void {
    const job = this.running.get(id);
    if (job === undefined || job.started) return; // answered already (the notice came late)
    job.started = true;
    // This timer also keeps the process alive while the job runs: idle threads are unref'd.
    job.timer = setTimeout(() => {
      job.abortedFor = { timeout: true };
      // Aborted while running, the job's thread is terminated by piscina.
      job.controller?.abort();
    }, this.limits.timeoutMs);
  }

  /**
   * A thread died holding no job: one that could not start (a broken install, too little heap)
   * or, rarely, an idle one. Piscina starts no other for the jobs in its queue, so the oldest
   * waiting job fails with the cause and a ping gets the next thread started for the rest.
   */
  private onThreadLost(error: Error): void {
    if (this.closed || this.pool === undefined) return;
    const waiting = [...this.running.values()].filter((job) => !job.started);
    const first = waiting[0];
    if (first === undefined) return;
    first.abortedFor = { failure: startFailure(error) };
    first.controller?.abort();
    if (waiting.length > 1) this.ping(this.pool);
  }

  /**
   * A thread is gone. One that exits without an error (ended while it loads pdf.js, say) is
   * reported by piscina only as destroyed, and the jobs in its queue would wait for the next
   * document. With no thread left and jobs not yet taken: after a recycle (a thread that had
   * read documents) they are handed over again; otherwise the thread never started, so it is
   * a start failure like onThreadLost's. An idle thread leaving finds no job waiting.
   */
  private onThreadGone(pool: Piscina<PdfTask, PdfReply>, threadId: number): void {
    const recycled = this.recycled.delete(threadId);
    if (this.closed || pool !== this.pool || pool.threads.length > 0) return;
    const waiting = [...this.running.values()].filter((job) => !job.started);
    if (waiting.length === 0) return;
    if (!recycled) return this.onThreadLost(new Error('the thread exited'));
    for (const job of waiting) {
      // The old hand-over's rejection is ignored: the job has a new controller by then.
      const { controller } = job;
      this.handOver(job);
      controller?.abort();
    }
  }

  /** Terminates a thread that asked to be replaced; it has just answered, so it is idle. */
  private recycle(threadId: number): void {
    const thread = this.pool?.threads.find((worker) => worker.threadId === threadId);
    if (thread === undefined) return;
    this.recycled.add(threadId);
    void thread.terminate();
  }

  private ping(pool: Piscina<PdfTask, PdfReply>): void {
    // Fails only when the pool is closed or the thread it started died: nothing to report.
    pool.run({ kind: 'ping' }).catch(() => undefined);
  }

  private threads(): Piscina<PdfTask, PdfReply> {
    if (this.pool !== undefined) return this.pool;
    const pool = new Piscina<PdfTask, PdfReply>({
      filename: WORKER_URL.href,
      minThreads: 0,
      maxThreads: this.poolSize,
      idleTimeout: this.idleMs,
      // One document at a time per thread: the time limit and the heap are a document's.
      concurrentTasksPerWorker: 1,
      // The thread's event loop turns between documents (pdf.js finishes its own clean-up on
      // timers), instead of piscina's default of blocking an idle thread in Atomics.wait.
      atomics: 'disabled',
      // Nothing inherited: the parent's flags (tsx, inspector, vitest's) are not for this
      // thread, and some are refused in workers.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: this.limits.maxWorkerMemoryMb, stackSizeMb: 4 },
      recordTiming: false,
    });
    // The thread lowers its own priority (shared/thread-priority.ts), so no niceIncrement here.
    pool.on('message', (message: unknown) => {
      if (isPdfJobStarted(message)) this.onStarted(message.pdfJobStarted);
    });
    pool.on('workerCreate', () => (this.started += 1));
    // Without a listener an EventEmitter's 'error' would throw on the main thread. After the
    // current turn: piscina reports the error before it has finished removing the thread.
    pool.on('error', (error: Error) => queueMicrotask(() => this.onThreadLost(error)));
    // After the 'error' turn above and the failed jobs' hand-overs: a thread that failed with a
    // cause is reported with it, and a job handed over again has started a fresh thread.
    pool.on('workerDestroy', (worker: { id: number }) => setImmediate(() => this.onThreadGone(pool, worker.id)));
    this.pool = pool;
    return pool;
  }
}

function startFailure(error: Error): Error {
  return new Error(`PDF worker failed to start: ${error.message}`);
}
