import { Piscina } from 'piscina';
import { AppError, serviceStopping } from '../shared/errors.ts';
import { workerEntry } from '../shared/worker-entry.ts';

const stopping = () => serviceStopping('the DISC map was not drawn');

const WORKER_URL = workerEntry(import.meta.url, './disc-map-worker.ts', './disc-map-worker-boot.mjs');
/** Renders waiting at once; past it a request gets 503 rather than an ever longer wait. */
const MAX_QUEUED = 256;
/** How long `close` waits for replaced threads to finish the render they were stuck in. */
const RETIRE_WAIT_MS = 20_000;
/**
 * The map thread with nothing to draw for this long exits (its fonts and resvg's buffers go with
 * it); the next uncached map starts one again (a few hundred ms).
 */
export const MAP_THREAD_IDLE_MS = 60_000;
/**
 * Piscina's closeTimeout, set as long as a timer can be: past it piscina would terminate a thread
 * still drawing, which the renderer never does (see retire). A timer of Infinity would fire at once.
 */
const NEVER_MS = 2 ** 31 - 1;

type RenderPool = Piscina<string, Uint8Array>;

export interface DiscMapRendererOptions {
  /** Images kept in the LRU cache. */
  cacheSize?: number;
  /**
   * How long the thread may go without finishing a render while renders wait before it counts
   * as stuck. A render takes milliseconds, but the thread runs at a low priority and shares the
   * cores with PDF and text work, so this is generous.
   */
  stallTimeoutMs?: number;
  /** How long an idle thread is kept (default MAP_THREAD_IDLE_MS). */
  idleMs?: number;
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
 * The thread is a piscina pool of one (started by the first uncached map, gone after idleMs
 * idle), drawing in order (stricterFIFO), one render at a time. A watchdog measures progress,
 * not the age of a request: a long queue behind a busy machine is slow, not stuck. When the
 * thread finishes nothing for `stallTimeoutMs`, the render it is on (the oldest) fails, its pool
 * is retired (see retire: the thread is never terminated inside resvg), and the renders queued
 * behind it go to a fresh pool. Piscina's own per-task AbortSignal is not used as the watchdog:
 * aborting a running task terminates its thread, which is what must not happen here.
 */
export class DiscMapRenderer {
  private readonly cache = new Map<string, Buffer>();
  private readonly inFlight = new Map<string, Promise<Buffer>>();
  /** In the order sent; the thread works on the first. */
  private readonly pending = new Map<number, Pending>();
  /** Retired pools, until their threads have exited. */
  private readonly retiring = new Set<Promise<void>>();
  private readonly cacheSize: number;
  private readonly stallTimeoutMs: number;
  private readonly idleMs: number;
  private pool: RenderPool | undefined;
  /** The pool's thread has started and drawn its warm-up image; until then the watchdog rests. */
  private ready = false;
  private watchdog: NodeJS.Timeout | null = null;
  private nextId = 1;
  private closed = false;
  private lateRenders = 0;

  constructor(options: DiscMapRendererOptions = {}) {
    this.cacheSize = options.cacheSize ?? 512;
    this.stallTimeoutMs = options.stallTimeoutMs ?? 10_000;
    this.idleMs = options.idleMs ?? MAP_THREAD_IDLE_MS;
  }

  get cached(): number {
    return this.cache.size;
  }

  /** The rendering thread, starting or ready: 0 before the first uncached map and once idle, else 1. */
  get threadCount(): number {
    return this.pool?.threads.length ?? 0;
  }

  /** Renders that retired threads finished after they were replaced (their callers had been answered). */
  get rendersFinishedAfterRetirement(): number {
    return this.lateRenders;
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
    // Counted here rather than with piscina's maxQueue: renders move to a fresh pool when a thread
    // is replaced, and the limit is the renderer's, whichever pool holds them.
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
    // Requests still waiting when the service stops (their connections cut at SHUTDOWN_TIMEOUT):
    // an expected refusal, not an internal error to log as one.
    const error = stopping();
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
    const pool = this.pool;
    this.pool = undefined;
    if (pool) this.retire(pool, this.ready);
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
    const pool = this.pool ?? this.spawn();
    void pool.run(svg).then(
      (png) => this.onRendered(pool, id, png),
      (error: unknown) => this.onFailed(pool, id, error instanceof Error ? error : new Error(String(error))),
    );
    if (this.ready && this.watchdog === null) this.arm();
  }

  private onRendered(pool: RenderPool, id: number, png: Uint8Array): void {
    if (pool !== this.pool) {
      this.lateRenders += 1;
      return;
    }
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    this.progress();
    pending.resolve(Buffer.from(png.buffer, png.byteOffset, png.byteLength));
  }

  private onFailed(pool: RenderPool, id: number, error: Error): void {
    // A retired pool's queued renders, refused by its close: they were sent to the fresh pool.
    if (pool !== this.pool) return;
    // Piscina has removed a thread that died before it answers for its task; a thread that is
    // still there only failed to draw this image.
    if (pool.threads.length === 0) return this.replace(pool, error, id);
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    this.progress();
    pending.reject(new Error(`DISC map rendering failed: ${error.message}`));
  }

  /** A render finished: the watchdog starts again for the next one, or rests when none waits. */
  private progress(): void {
    if (this.pending.size > 0) this.arm();
    else this.disarm();
  }

  private arm(): void {
    this.disarm();
    const pool = this.pool;
    const timer = setTimeout(() => {
      if (pool) this.replace(pool, new Error('DISC map rendering timed out'));
    }, this.stallTimeoutMs);
    // An idle renderer must not keep the process alive; waiting renders hold their requests open.
    timer.unref();
    this.watchdog = timer;
  }

  private disarm(): void {
    if (this.watchdog !== null) clearTimeout(this.watchdog);
    this.watchdog = null;
  }

  private spawn(): RenderPool {
    const pool: RenderPool = new Piscina<string, Uint8Array>({
      filename: WORKER_URL.href,
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: this.idleMs,
      concurrentTasksPerWorker: 1,
      // In the order asked: the watchdog takes the oldest pending render to be the one in hand,
      // and piscina's default puts a task it could not hand over at the back of its queue.
      stricterFIFO: true,
      // The thread's event loop turns between renders, which is when resvg frees memory
      // (disc-map-worker.ts); piscina's default keeps an idle thread in Atomics.wait instead.
      atomics: 'disabled',
      closeTimeout: NEVER_MS,
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: 128 },
      recordTiming: false,
    });
    pool.on('workerCreate', () => {
      if (pool !== this.pool) return;
      this.ready = true;
      if (this.pending.size > 0) this.arm();
    });
    // Gone when idle (idleTimeout) or dead: the next render waits for a fresh thread to start.
    pool.on('workerDestroy', () => {
      if (pool === this.pool) this.ready = false;
    });
    // A thread that failed to start, or died idle. Without a listener the 'error' event would
    // throw on the main thread; after this turn, as piscina is still removing the thread.
    pool.on('error', (error: Error) => queueMicrotask(() => this.replace(pool, error)));
    this.pool = pool;
    this.ready = false;
    return pool;
  }

  /**
   * Retires `pool` (stuck, or its thread gone), fails the render it was on (`failedId`, or the
   * oldest), and sends the rest to a fresh pool.
   */
  private replace(pool: RenderPool, error: Error, failedId?: number): void {
    if (pool !== this.pool) return;
    this.pool = undefined;
    this.disarm();
    this.retire(pool, this.ready);
    this.ready = false;
    const id = failedId ?? this.pending.keys().next().value;
    const failed = id === undefined ? undefined : this.pending.get(id);
    if (id !== undefined && failed) {
      this.pending.delete(id);
      failed.reject(error);
    }
    if (this.closed) return;
    for (const [waitingId, waiting] of this.pending) this.send(waitingId, waiting.svg);
  }

  /**
   * Lets a pool go without ever terminating its thread inside resvg: stopped inside the
   * rasteriser (native code), resvg panicked and the panic aborted the whole process. A stuck
   * render finishes (resvg has no endless loops; the slowest seen took seconds), meanwhile its
   * thread only costs a core at low priority.
   *
   * piscina's close({ force: true }) refuses the renders still queued in the pool, waits for the
   * one in hand (closeTimeout is NEVER_MS) and only then terminates the thread, idle by then.
   * A thread still starting is drawing its warm-up image, and close() would terminate it at
   * once (it holds no task), so the close waits until it is ready (or has died).
   */
  private retire(pool: RenderPool, ready: boolean): void {
    const threads = pool.threads;
    const exited = Promise.all(threads.map((thread) => new Promise<void>((resolve) => thread.once('exit', () => resolve())))).then(() => undefined);
    this.retiring.add(exited);
    void exited.then(() => this.retiring.delete(exited));
    let closing = false;
    const close = () => {
      if (closing) return;
      closing = true;
      void pool.close({ force: true }).catch(() => undefined);
    };
    if (ready || threads.length === 0) return close();
    pool.once('workerCreate', close);
    pool.once('workerDestroy', close);
  }
}
