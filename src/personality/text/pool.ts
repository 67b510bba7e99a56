/**
 * Text analysis off the main thread. A long text costs tens of milliseconds (about 1.5 ms
 * per 1,000 words, ~90 ms for the 100,000-character maximum on a loaded machine); many at
 * once would keep the event loop, and every other request, waiting. Texts from
 * `inlineMaxChars` characters up go to a pool of worker threads (piscina); shorter ones are
 * analysed at once, where a worker's round trip would cost more than it saves. The queue is
 * bounded: when it is full the caller is told to come back (503 with Retry-After) instead of
 * piling up memory and latency.
 *
 * A thread that dies (an uncaught error while idle, or one that cannot start) is reported by
 * piscina as an 'error' event, which without a listener would throw on the main thread and stop
 * the service. Piscina then starts no other thread for the texts left in its queue (with
 * `minThreads: 0` it starts one only on the next `run()`), so when no thread is left and texts
 * wait, the oldest fails with the cause and the others are handed over again, which starts a
 * fresh thread for them: one failed start per text, never a respawn loop. A thread that exits
 * without an error (piscina then reports only that it is gone) is treated the same way.
 */
import { Piscina } from 'piscina';
import { AppError, serviceStopping } from '../../shared/errors.ts';
import { workerEntry } from '../../shared/worker-entry.ts';
import { analyzeText, type TextAnalysis, type TextModel, type TextType } from './index.ts';
import type { TextTask, TextWorkerData } from './worker.ts';

const WORKER_URL = workerEntry(import.meta.url, './worker.ts', './worker-boot.mjs');

const stopping = () => serviceStopping('the text was not analysed');

/** A queued text is analysed within a second or two, so that is when to come back. */
const FULL_RETRY_SECONDS = 2;

/**
 * A thread with nothing to do for this long exits (each holds its own copy of the model, ~30 MB
 * resident); the next long text starts one again (~0.2 s on a quiet machine).
 */
export const TEXT_THREAD_IDLE_MS = 60_000;

export interface TextPoolOptions {
  /** The process's model (ctx.model), for texts analysed inline. */
  model: TextModel;
  /** The file it was loaded from: each worker thread loads the same file once. */
  modelPath: string;
  /** Worker threads. */
  workers: number;
  /** Texts that may wait for a worker; one more is refused with `unavailable`. */
  maxQueue: number;
  /** Texts shorter than this (in UTF-16 code units) are analysed on the calling thread. */
  inlineMaxChars: number;
}

export interface PooledAnalyzeOptions {
  /** What the caller says the text is (the contract's text_type); undefined lets the model guess. */
  textType?: TextType | undefined;
  evidence?: boolean;
  /**
   * Work already stored and queued (a Connect search's job): it waits its turn however long the
   * queue, rather than being refused like a caller who can send again. The job worker sends one
   * text at a time, so this adds at most one text per worker to the queue.
   */
  background?: boolean;
}

/** A text handed to the worker threads and not yet answered. */
interface PooledText {
  task: TextTask;
  resolve: (analysis: TextAnalysis) => void;
  reject: (error: unknown) => void;
  /** This hand-over's: aborting it takes the text out of piscina's queue. */
  controller: AbortController;
}

export class TextPool {
  readonly options: Readonly<TextPoolOptions>;
  /** Started on the first long text: CLI commands that build a context never need it. */
  private pool: Piscina<TextTask, TextAnalysis> | undefined;
  private closed = false;
  private sent = 0;
  /** In the order sent: the first is the oldest. */
  private readonly unanswered = new Set<PooledText>();

  constructor(options: TextPoolOptions) {
    this.options = Object.freeze({ ...options, workers: Math.max(1, Math.floor(options.workers)) });
  }

  /** Texts waiting for a worker now. */
  get queued(): number {
    return this.pool?.queueSize ?? 0;
  }

  /** Texts handed to the worker threads since start (running, queued or done). */
  get pooledTexts(): number {
    return this.sent;
  }

  /** Worker threads running now: none until the first long text, at most `workers`. */
  get threadCount(): number {
    return this.pool?.threads.length ?? 0;
  }

  /** Starts the worker threads now, so that the first long text does not wait for them (tests and benchmarks). */
  warm(): void {
    this.threads(this.options.workers);
  }

  analyze(text: string, options: PooledAnalyzeOptions = {}): Promise<TextAnalysis> {
    const task: TextTask = { text, textType: options.textType, evidence: options.evidence === true };
    if (text.length < this.options.inlineMaxChars) {
      return Promise.resolve(analyzeText(text, { ...task, model: this.options.model }));
    }
    if (this.queued >= this.options.maxQueue && options.background !== true) {
      return Promise.reject(
        new AppError('unavailable', 'The service is busy analysing other long texts; send this one again in a moment.', {
          retryAfterSeconds: FULL_RETRY_SECONDS,
        }),
      );
    }
    if (this.closed) return Promise.reject(stopping());
    const pool = this.threads();
    this.sent++;
    return new Promise<TextAnalysis>((resolve, reject) => {
      const pooled: PooledText = { task, resolve, reject, controller: new AbortController() };
      this.unanswered.add(pooled);
      this.handOver(pool, pooled);
    });
  }

  /** Stops the worker threads; texts still queued or running reject. */
  async close(): Promise<void> {
    this.closed = true;
    await this.pool?.destroy();
  }

  private handOver(pool: Piscina<TextTask, TextAnalysis>, pooled: PooledText): void {
    const controller = new AbortController();
    pooled.controller = controller;
    pool.run(pooled.task, { signal: controller.signal }).then(
      (analysis) => {
        if (pooled.controller !== controller) return;
        this.unanswered.delete(pooled);
        pooled.resolve(analysis);
      },
      (error: unknown) => {
        // Aborted here to be handed over again (see onThreadLost): answered by that hand-over.
        if (pooled.controller !== controller) return;
        this.unanswered.delete(pooled);
        // Texts still waiting when the service stops (their connections cut at SHUTDOWN_TIMEOUT)
        // are refused as such, not reported as internal errors.
        pooled.reject(this.closed ? stopping() : error);
        // Its thread may have died with it (a crash, not a failed analysis), leaving the others waiting.
        this.resume(pool);
      },
    );
  }

  /**
   * A thread died holding no text: one that could not start, or an idle one. With no thread left
   * and texts waiting, the oldest fails with the cause (a thread that cannot start would most
   * likely fail the same way again) and the others get a fresh thread.
   */
  private onThreadLost(pool: Piscina<TextTask, TextAnalysis>, error: Error): void {
    if (this.closed || pool !== this.pool || pool.threads.length > 0) return;
    const oldest = this.unanswered.values().next();
    if (oldest.done) return;
    const pooled = oldest.value;
    this.unanswered.delete(pooled);
    // Aborting takes it out of piscina's queue; its run's rejection is ignored (no current controller).
    const { controller } = pooled;
    pooled.controller = new AbortController();
    controller.abort();
    pooled.reject(new Error(`text worker failed to start: ${error.message}`));
    this.resume(pool);
  }

  /**
   * Piscina starts a thread for a new `run()`, not for texts already in its queue once the threads
   * are gone: those are handed over again, in their order, when no thread is left.
   */
  private resume(pool: Piscina<TextTask, TextAnalysis>): void {
    if (this.closed || pool !== this.pool || pool.threads.length > 0 || this.unanswered.size === 0) return;
    const waiting = [...this.unanswered];
    for (const pooled of waiting) pooled.controller.abort();
    for (const pooled of waiting) this.handOver(pool, pooled);
  }

  /** The pool, made on first use; `minThreads` are started at once and kept. */
  private threads(minThreads = 0): Piscina<TextTask, TextAnalysis> {
    if (this.closed) throw stopping();
    if (this.pool !== undefined) return this.pool;
    const workerData: TextWorkerData = { modelPath: this.options.modelPath };
    const pool = new Piscina<TextTask, TextAnalysis>({
      filename: WORKER_URL.href,
      // Threads start as long texts arrive, one per text up to `workers`, and leave when idle:
      // a service that analyses no long text holds none.
      minThreads,
      maxThreads: this.options.workers,
      idleTimeout: TEXT_THREAD_IDLE_MS,
      // One text at a time per thread: a second would only wait behind the first.
      concurrentTasksPerWorker: 1,
      // Lower priority than the event loop: on a busy machine the OS runs the thread that
      // answers requests (and /healthz) first. Linux only; elsewhere, or without the optional
      // @napi-rs/nice binary, piscina skips it.
      niceIncrement: 10,
      // Nothing inherited: the parent's flags (tsx, inspector, vitest's) are not for a worker.
      execArgv: [],
      workerData,
    });
    // After the current turn: piscina reports the error before it has finished removing the thread.
    pool.on('error', (error: Error) => queueMicrotask(() => this.onThreadLost(pool, error)));
    // A thread that exits holding no text (ended while it loads, or exiting with no error) is not
    // reported as an error, only destroyed. Checked after the 'error' turn above, so a thread that
    // failed with a cause is reported with it; an idle thread leaving finds no text waiting.
    pool.on('workerDestroy', () => setImmediate(() => this.onThreadLost(pool, new Error('the thread exited'))));
    this.pool = pool;
    return pool;
  }
}
