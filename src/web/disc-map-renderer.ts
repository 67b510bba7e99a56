import { Worker } from 'node:worker_threads';
import { AppError } from '../shared/errors.ts';
import { workerEntry } from '../shared/worker-entry.ts';
import type { RenderReply, RenderRequest } from './disc-map-worker.ts';

const WORKER_URL = workerEntry(import.meta.url, './disc-map-worker.ts', './disc-map-worker-boot.mjs');
/** Renders waiting at once; past it a request gets 503 rather than an ever longer wait. */
const MAX_QUEUED = 256;
/** A render takes milliseconds; this long means the thread is stuck. */
const RENDER_TIMEOUT_MS = 10_000;

interface Pending {
  resolve: (png: Buffer) => void;
  reject: (error: Error) => void;
}

/**
 * DISC map PNGs, rasterised in a worker thread (resvg takes tens of milliseconds per image,
 * which would hold every other request on the event loop) and kept in a bounded LRU cache:
 * a map URL names its image completely, so a hit is always right. Requests for an image
 * already being rendered share that render.
 */
export class DiscMapRenderer {
  private readonly cache = new Map<string, Buffer>();
  private readonly inFlight = new Map<string, Promise<Buffer>>();
  private readonly pending = new Map<number, Pending>();
  private worker: Worker | null = null;
  private nextId = 1;
  private closed = false;

  constructor(private readonly cacheSize = 512) {}

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
    const worker = this.worker;
    this.worker = null;
    this.failAll(new Error('DISC map renderer closed'));
    if (worker) await worker.terminate();
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
    if (this.closed) return Promise.reject(new Error('DISC map renderer closed'));
    const worker = this.worker ?? this.spawn();
    const id = this.nextId++;
    return new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => {
        // Stuck: a fresh thread serves the next request.
        this.pending.delete(id);
        reject(new Error('DISC map rendering timed out'));
        void this.restart();
      }, RENDER_TIMEOUT_MS);
      this.pending.set(id, {
        resolve: (png) => {
          clearTimeout(timer);
          resolve(png);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      worker.postMessage({ id, svg } satisfies RenderRequest);
    });
  }

  private spawn(): Worker {
    const worker = new Worker(WORKER_URL, { execArgv: [], resourceLimits: { maxOldGenerationSizeMb: 128 } });
    worker.on('message', (message: RenderReply | { ready: true }) => {
      if (!('id' in message)) return;
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.pending.delete(message.id);
      if ('png' in message) pending.resolve(Buffer.from(message.png.buffer, message.png.byteOffset, message.png.byteLength));
      else pending.reject(new Error(`DISC map rendering failed: ${message.error}`));
    });
    const died = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.failAll(error);
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`DISC map worker exited with code ${code}`)));
    // An idle renderer must not keep the process alive; a pending render holds its timer.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private async restart(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.failAll(new Error('DISC map worker restarted'));
    if (worker) await worker.terminate();
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
