import { Worker } from 'node:worker_threads';
import { AppError, serviceStopping } from '../shared/errors.ts';
import { workerEntry } from '../shared/worker-entry.ts';
import type { RenderReply, RenderRequest } from './disc-map-worker.ts';

const stopping = () => serviceStopping('the DISC map was not drawn');

const WORKER_URL = workerEntry(import.meta.url, './disc-map-worker.ts', './disc-map-worker-boot.mjs');
/** Renders waiting at once; past it a request gets 503 rather than an ever longer wait. */
const MAX_QUEUED = 256;
/** How long `close` waits for replaced threads to finish the render they were stuck in. */
const RETIRE_WAIT_MS = 20_000;

export interface DiscMapRendererOptions {
  /** Images kept in the LRU cache. */
  cacheSize?: number;
  /**
   * How long the thread may go without finishing a render while renders wait before it counts
   * as stuck. A render takes milliseconds, but the thread runs at a low priority and shares the
   * cores with PDF and text work, so this is generous.
   */
  stallTimeoutMs?: number;
}

interface Pending {
  svg: string;
  resolve: (png: Buffer) => void;
  reject: (error: Error) => void;
}

/**
 * DISC map PNGs, rasterised in a worker thread (resvg takes tens of milliseconds per image,
 * which would hold every other request on the event loop) and kept in a bounded LRU cache:
 * a map URL names its image completely, so a hit is always right. Requests for an image
 * already being rendered share that render.
 *
 * The thread renders in order, one at a time. A watchdog measures progress, not the age of a
 * request: a long queue behind a busy machine is slow, not stuck. When the thread finishes
 * nothing for `stallTimeoutMs`, the render it is on (the oldest) fails, the thread is replaced,
 * and the renders queued behind it are sent to the new one.
 */
export class DiscMapRenderer {
  private readonly cache = new Map<string, Buffer>();
  private readonly inFlight = new Map<string, Promise<Buffer>>();
  /** In the order sent; the thread works on the first. */
  private readonly pending = new Map<number, Pending>();
  /** Threads replaced while stuck, until they have exited. */
  private readonly retiring = new Set<Promise<void>>();
  private readonly retiredFlags = new WeakMap<Worker, Int32Array>();
  private readonly cacheSize: number;
  private readonly stallTimeoutMs: number;
  private worker: Worker | null = null;
  /** The thread has started and drawn its warm-up image; until then the watchdog rests. */
  private ready = false;
  private watchdog: NodeJS.Timeout | null = null;
  private nextId = 1;
  private closed = false;

  constructor(options: DiscMapRendererOptions = {}) {
    this.cacheSize = options.cacheSize ?? 512;
    this.stallTimeoutMs = options.stallTimeoutMs ?? 10_000;
  }

  get cached(): number {
    return this.cache.size;
  }

  /** The PNG of `svg`, cached under `key`. */
  png(key: string, svg: string): Promise<Buffer> {
    const hit = this.cache.get(key);
    if (hit) {
      // Most recently used goes last; the first is the one to evict.
      this.cache.delete(key);
      this.cache.set(key, hit);
      return Promise.resolve(hit);
    }
    const running = this.inFlight.get(key);
    if (running) return running;
    if (this.pending.size >= MAX_QUEUED) {
      return Promise.reject(new AppError('unavailable', 'Too many map images are being drawn right now; try again in a moment.', { retryAfterSeconds: 1 }));
    }
    const render = this.render(svg).then((png) => {
      this.store(key, png);
      return png;
    });
    this.inFlight.set(key, render);
    const forget = () => this.inFlight.delete(key);
    render.then(forget, forget);
    return render;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.disarm();
    const worker = this.worker;
    this.worker = null;
    // Requests still waiting when the service stops (their connections cut at SHUTDOWN_TIMEOUT):
    // an expected refusal, not an internal error to log as one.
    const error = stopping();
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
    if (worker) this.retire(worker);
    // A thread in the middle of a render ends when that render does; a process that exits
    // before then can abort on the way out (see retire), so close waits for it, a while.
    const cap = new Promise((resolve) => setTimeout(resolve, RETIRE_WAIT_MS).unref());
    await Promise.race([Promise.allSettled([...this.retiring]), cap]);
  }

  private store(key: string, png: Buffer): void {
    this.cache.set(key, png);
    while (this.cache.size > this.cacheSize) {
      const oldest = this.cache.keys().next();
      if (oldest.done) break;
      this.cache.delete(oldest.value);
    }
  }

  private render(svg: string): Promise<Buffer> {
    if (this.closed) return Promise.reject(stopping());
    const id = this.nextId++;
    return new Promise<Buffer>((resolve, reject) => {
      this.pending.set(id, { svg, resolve, reject });
      this.send(id, svg);
    });
  }

  private send(id: number, svg: string): void {
    const worker = this.worker ?? this.spawn();
    worker.postMessage({ id, svg } satisfies RenderRequest);
    if (this.ready && this.watchdog === null) this.arm();
  }

  private arm(): void {
    this.disarm();
    const timer = setTimeout(() => this.replaceStuckWorker(new Error('DISC map rendering timed out')), this.stallTimeoutMs);
    // An idle renderer must not keep the process alive; waiting renders hold their requests open.
    timer.unref();
    this.watchdog = timer;
  }

  private disarm(): void {
    if (this.watchdog !== null) clearTimeout(this.watchdog);
    this.watchdog = null;
  }

  private spawn(): Worker {
    // Set to 1 when the thread is retired: it then skips the renders still queued to it.
    const retired = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(WORKER_URL, { execArgv: [], resourceLimits: { maxOldGenerationSizeMb: 128 }, workerData: { retired } });
    this.retiredFlags.set(worker, retired);
    worker.on('message', (message: RenderReply | { ready: true }) => {
      if (this.worker !== worker) return;
      if (!('id' in message)) {
        this.ready = true;
        if (this.pending.size > 0) this.arm();
        return;
      }
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.pending.delete(message.id);
      // Progress: the watchdog starts again for the next render, or rests when none waits.
      if (this.pending.size > 0) this.arm();
      else this.disarm();
      if ('png' in message) pending.resolve(Buffer.from(message.png.buffer, message.png.byteOffset, message.png.byteLength));
      else pending.reject(new Error(`DISC map rendering failed: ${message.error}`));
    });
    // Gone already (a crash, or its own exit): nothing to retire, only its queue to resend.
    const died = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.disarm();
      this.failFirstAndResend(error);
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`DISC map worker exited with code ${code}`)));
    worker.unref();
    this.worker = worker;
    this.ready = false;
    return worker;
  }

  /**
   * Asks a thread to exit once its current render is done. Never `terminate()`: stopped inside
   * the rasteriser (native code), resvg panicked and the panic aborted the whole process. A stuck
   * render finishes (resvg has no endless loops; the slowest seen took seconds), meanwhile its
   * thread only costs a core at low priority.
   */
  private retire(worker: Worker): void {
    const flag = this.retiredFlags.get(worker);
    if (flag) Atomics.store(flag, 0, 1);
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    this.retiring.add(exited);
    void exited.then(() => this.retiring.delete(exited));
    worker.postMessage({ exit: true } satisfies RenderRequest);
  }

  /** Retires a thread that finished nothing for too long, and hands its queue to a fresh one. */
  private replaceStuckWorker(error: Error): void {
    const worker = this.worker;
    this.worker = null;
    this.disarm();
    if (worker) this.retire(worker);
    this.failFirstAndResend(error);
  }

  /** Fails the render the old thread was on (the oldest) and sends the rest to a fresh thread. */
  private failFirstAndResend(error: Error): void {
    const first = this.pending.entries().next();
    if (!first.done) {
      const [id, stuck] = first.value;
      this.pending.delete(id);
      stuck.reject(error);
    }
    if (this.closed) return;
    for (const [id, waiting] of this.pending) this.send(id, waiting.svg);
  }
}
