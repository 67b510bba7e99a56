/**
 * A small pool of long-lived worker threads running pdf.js. Starting a worker costs about
 * 0.2-0.5 s (tsx and pdf.js load), which would blow the 100 ms budget for a resume, so
 * workers are reused. One that timed out, crashed or left pdf.js in doubt is dropped at
 * once and replaced when the next job needs it; one that merely ran many jobs keeps serving
 * until its replacement is ready, so routine recycling never makes a request wait.
 */
import { stat } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { workerEntry } from '../../shared/worker-entry.ts';
import { sniffPdf } from './sniff.ts';
import {
  DEFAULT_PDF_LIMITS,
  HARD_PAGE_CAP_FACTOR,
  type ExtractOptions,
  type PdfLimits,
  type PdfTextResult,
  type WorkerMessage,
  type WorkerRequest,
} from './types.ts';

/** pdf.js caches fonts and objects per thread; a fresh thread now and then bounds that. */
const RECYCLE_AFTER_JOBS = 200;
/** Generous: a cold tsx transform cache on a busy machine can take seconds. */
const BOOT_TIMEOUT_MS = 30_000;
const WORKER_URL = workerEntry(import.meta.url, './worker.ts', './worker-boot.mjs');

interface Job {
  source: { bytes: Uint8Array<ArrayBuffer> } | { file: string };
  resolve: (result: PdfTextResult) => void;
  reject: (error: Error) => void;
}

interface Running extends Job {
  id: number;
  timer: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** Settles when the worker is ready or failed to start; awaited by warm(). */
  started: Promise<void>;
  settleStart: (error?: Error) => void;
  bootTimer: NodeJS.Timeout | undefined;
  job: Running | undefined;
  jobsDone: number;
  /** Ran its share of jobs: serves only until a fresh worker is ready. */
  retiring: boolean;
}

export class PdfExtractor {
  readonly limits: Readonly<PdfLimits>;
  private readonly poolSize: number;
  private readonly options: ExtractOptions;
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private started = 0;
  private closed = false;

  constructor(limits: Partial<PdfLimits> = {}, poolSize = 1) {
    this.limits = Object.freeze({ ...DEFAULT_PDF_LIMITS, ...limits });
    this.poolSize = Math.max(1, Math.floor(poolSize));
    this.options = {
      maxPages: this.limits.maxPages,
      hardPageCap: this.limits.maxPages * HARD_PAGE_CAP_FACTOR,
      maxTextChars: this.limits.maxTextChars,
      // Half the heap limit: pdf.js grows decode buffers by doubling, so this keeps its
      // off-heap memory near maxWorkerMemoryMb too.
      maxDecodedBytes: (this.limits.maxWorkerMemoryMb * 1024 * 1024) / 2,
    };
  }

  /** Worker threads started so far (replacements included). */
  get workersStarted(): number {
    return this.started;
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
    // A private copy: it is transferred to (and detached by) the worker; the caller keeps theirs.
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

  private enqueue(source: Job['source']): Promise<PdfTextResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ source, resolve, reject });
      this.pump();
    });
  }

  /** Starts the whole pool now, so that the first request does not wait for a worker. */
  async warm(): Promise<void> {
    if (this.closed) throw new Error('PdfExtractor is closed');
    while (this.slots.size < this.poolSize) this.spawn();
    await Promise.all([...this.slots].map((slot) => slot.started));
  }

  /** Stops every worker so the process can exit; pending and queued requests reject. */
  async close(): Promise<void> {
    this.closed = true;
    const error = new Error('PdfExtractor closed');
    for (const job of this.queue.splice(0)) job.reject(error);
    await Promise.all(
      [...this.slots].map((slot) => {
        slot.job?.reject(error);
        return this.retire(slot);
      }),
    );
  }

  private pump(): void {
    if (this.closed) return;
    const slots = [...this.slots];
    // Fresh workers first, so retiring ones fall idle and can go.
    const idle = slots.filter((slot) => slot.ready && slot.job === undefined);
    idle.sort((a, b) => Number(a.retiring) - Number(b.retiring));
    for (const slot of idle) {
      const job = this.queue.shift();
      if (job === undefined) break;
      this.dispatch(slot, job);
    }
    const active = slots.filter((slot) => !slot.retiring);
    const healthy = active.filter((slot) => slot.ready).length;
    // A retiring worker goes once a fresh one can take over.
    for (const slot of slots) {
      if (slot.retiring && slot.job === undefined && healthy > 0) void this.retire(slot);
    }
    // Start workers for waiting jobs (not already covered by one starting) and to replace
    // retiring ones, up to poolSize.
    let booting = active.length - healthy;
    let count = active.length;
    const wanted = (): boolean => this.queue.length > booting || slots.some((slot) => slot.retiring);
    while (count < this.poolSize && wanted()) {
      this.spawn();
      booting++;
      count++;
    }
  }

  private dispatch(slot: Slot, job: Job): void {
    const id = this.nextId++;
    // This timer also keeps the process alive while the job runs: workers are unref'd.
    const timer = setTimeout(() => this.onTimeout(slot), this.limits.timeoutMs);
    slot.job = { ...job, id, timer };
    const request: WorkerRequest = { id, ...job.source, options: this.options };
    slot.worker.postMessage(request, 'bytes' in job.source ? [job.source.bytes.buffer] : []);
  }

  private spawn(): void {
    const worker = new Worker(WORKER_URL, {
      // Nothing inherited: the parent's flags (tsx, inspector, vitest's) are not for this
      // thread, and some are refused in workers.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: this.limits.maxWorkerMemoryMb, stackSizeMb: 4 },
    });
    let settleStart: (error?: Error) => void = () => undefined;
    const started = new Promise<void>((resolve, reject) => {
      settleStart = (error) => (error === undefined ? resolve() : reject(error));
    });
    started.catch(() => undefined); // only warm() cares; others learn through their job
    const slot: Slot = {
      worker,
      ready: false,
      started,
      settleStart,
      bootTimer: undefined,
      job: undefined,
      jobsDone: 0,
      retiring: false,
    };
    slot.bootTimer = setTimeout(() => this.onDeath(slot, new Error('did not start in time')), BOOT_TIMEOUT_MS);
    worker.on('message', (message: WorkerMessage) => this.onMessage(slot, message));
    worker.on('error', (error) => this.onDeath(slot, error));
    worker.on('exit', (code) => this.onDeath(slot, new Error(`exited with code ${code}`)));
    // An idle pool must not keep the process alive; pending work holds a timer instead.
    // After the listeners: adding a 'message' listener refs the worker again.
    worker.unref();
    this.slots.add(slot);
    this.started++;
  }

  private onMessage(slot: Slot, message: WorkerMessage): void {
    if (!this.slots.has(slot)) return;
    if (message.type === 'ready') {
      clearTimeout(slot.bootTimer);
      slot.ready = true;
      slot.settleStart();
    } else {
      const job = slot.job;
      if (job === undefined || job.id !== message.id) return; // answer to a job already timed out
      clearTimeout(job.timer);
      slot.job = undefined;
      slot.jobsDone++;
      job.resolve(message.result);
      if (message.recycle) void this.retire(slot);
      else if (slot.jobsDone >= RECYCLE_AFTER_JOBS) slot.retiring = true;
    }
    this.pump();
  }

  private onTimeout(slot: Slot): void {
    const job = slot.job;
    slot.job = undefined;
    // Terminating stops even a synchronous pdf.js loop; the next job gets a fresh worker.
    void this.retire(slot);
    job?.resolve({ ok: false, reason: 'timeout' });
    this.pump();
  }

  /** A worker crashed (out of memory, fatal pdf.js error) or exited by itself. */
  private onDeath(slot: Slot, error: Error): void {
    if (!this.slots.has(slot)) return; // retired on purpose
    const job = slot.job;
    slot.job = undefined;
    const bootFailure = !slot.ready && job === undefined;
    const cause = new Error(`PDF worker failed to start: ${error.message}`);
    if (bootFailure) slot.settleStart(cause); // before retire(), so warm() sees the cause
    void this.retire(slot);
    if (job !== undefined) {
      // Most likely the document exhausted the worker's heap: the file is the problem.
      job.resolve({ ok: false, reason: 'unreadable' });
    } else if (bootFailure) {
      // Keep old workers serving; they ask for a replacement again after their next job,
      // which paces retries.
      for (const other of this.slots) other.retiring = false;
      // With nobody to serve, fail one waiting request with the cause rather than respawn
      // in a loop; the others get the next attempt.
      if (![...this.slots].some((other) => other.ready)) this.queue.shift()?.reject(cause);
    }
    this.pump();
  }

  private async retire(slot: Slot): Promise<void> {
    this.slots.delete(slot);
    clearTimeout(slot.bootTimer);
    if (slot.job !== undefined) clearTimeout(slot.job.timer);
    slot.settleStart(new Error('PDF worker stopped before it was ready'));
    await slot.worker.terminate();
  }
}
