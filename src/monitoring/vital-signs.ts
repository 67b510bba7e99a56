import { AppError } from '../shared/errors.ts';

/**
 * What the operations listener's thread (src/http/ops-listener/) reads to answer `/healthz` without asking
 * the main thread: when the main thread's event loop last ran a timer, and when the database
 * last answered it. Both are monotonic clock readings (`process.hrtime`: CLOCK_MONOTONIC, one
 * clock for every thread and process of the machine) in a SharedArrayBuffer, so a health check
 * is answered in the thread at once however busy the event loop is, and still says so when that
 * loop has stopped turning or the database has stopped answering. Under `serve --processes N`
 * each API process sends its signs to the primary, which serves the listener for all of them
 * (src/monitoring/cluster-vitals.ts).
 */

const LOOP_BEAT = 0;
const DATABASE_ANSWER = 1;
const SLOTS = 2;

/** How often the event loop writes its beat. */
const BEAT_INTERVAL_MS = 100;
/** How often the database is asked (a ping: on the embedded database, free while it is busy answering others). */
const DATABASE_CHECK_INTERVAL_MS = 1000;

export interface HealthLimits {
  /** The event loop has not run a timer for this long: unhealthy. */
  loopSilenceMs: number;
  /** The database has not answered a ping for this long: unhealthy. */
  databaseSilenceMs: number;
}

/** A loop turn is a few ms, a busy burst's longest ~0.1 s; two seconds without one is a stall. */
export const DEFAULT_HEALTH_LIMITS: HealthLimits = { loopSilenceMs: 2000, databaseSilenceMs: 5000 };

/** When the loop last beat and the database last answered (`process.hrtime.bigint()`; 0n = never). */
export interface VitalTimes {
  loopBeatAt: bigint;
  databaseAnsweredAt: bigint;
}

export function createVitalSignsBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(SLOTS * BigInt64Array.BYTES_PER_ELEMENT);
}

/** For a process that gathers other processes' signs (src/monitoring/cluster-vitals.ts). */
export function writeVitalSigns(buffer: SharedArrayBuffer, times: VitalTimes): void {
  const slots = new BigInt64Array(buffer);
  Atomics.store(slots, LOOP_BEAT, times.loopBeatAt);
  Atomics.store(slots, DATABASE_ANSWER, times.databaseAnsweredAt);
}

/** Main thread: keeps the beat and the database's last answer up to date. */
export class VitalSigns {
  readonly buffer = createVitalSignsBuffer();
  private readonly slots = new BigInt64Array(this.buffer);
  private readonly beat: NodeJS.Timeout;
  private databaseTimer: NodeJS.Timeout | null = null;
  private closed = false;

  private constructor(private readonly ping: () => Promise<void>) {
    this.mark(LOOP_BEAT);
    this.beat = setInterval(() => this.mark(LOOP_BEAT), BEAT_INTERVAL_MS);
    // Neither timer keeps a stopping process alive.
    this.beat.unref();
  }

  /** Starts both signs; resolves after the database's first answer (or first failure). */
  static async start(ping: () => Promise<void>): Promise<VitalSigns> {
    const signs = new VitalSigns(ping);
    await signs.checkDatabase();
    return signs;
  }

  /** This process's signs as they stand. */
  times(): VitalTimes {
    return { loopBeatAt: Atomics.load(this.slots, LOOP_BEAT), databaseAnsweredAt: Atomics.load(this.slots, DATABASE_ANSWER) };
  }

  close(): void {
    this.closed = true;
    clearInterval(this.beat);
    if (this.databaseTimer !== null) clearTimeout(this.databaseTimer);
  }

  private mark(slot: number): void {
    Atomics.store(this.slots, slot, process.hrtime.bigint());
  }

  /** One ping at a time: a slow answer delays the next check rather than piling pings up. */
  private async checkDatabase(): Promise<void> {
    try {
      await this.ping();
      this.mark(DATABASE_ANSWER);
    } catch {
      // The answer's age grows until the database answers again; the verdict reports it.
    }
    if (this.closed) return;
    this.databaseTimer = setTimeout(() => void this.checkDatabase(), DATABASE_CHECK_INTERVAL_MS);
    this.databaseTimer.unref();
  }
}

/** Any thread: how long ago the loop beat and the database answered (ms; Infinity = never). */
export function readVitalSigns(buffer: SharedArrayBuffer, now: bigint = process.hrtime.bigint()) {
  const slots = new BigInt64Array(buffer);
  const ageMs = (slot: number) => {
    const at = Atomics.load(slots, slot);
    return at === 0n ? Number.POSITIVE_INFINITY : Number(now - at) / 1e6;
  };
  return { loopSilentMs: ageMs(LOOP_BEAT), databaseSilentMs: ageMs(DATABASE_ANSWER) };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Healthy (null), or why not, as the error a health check answers with. */
export function healthVerdict(signs: ReturnType<typeof readVitalSigns>, limits: HealthLimits): AppError | null {
  if (signs.loopSilentMs === Number.POSITIVE_INFINITY) return new AppError('unavailable', 'The service has not started yet.');
  if (signs.loopSilentMs > limits.loopSilenceMs) {
    return new AppError('unavailable', `The service's event loop has not turned for ${seconds(signs.loopSilentMs)}: it is stalled.`);
  }
  if (signs.databaseSilentMs > limits.databaseSilenceMs) {
    const since = Number.isFinite(signs.databaseSilentMs) ? `for ${seconds(signs.databaseSilentMs)}` : 'since the service started';
    return new AppError('unavailable', `The database has not answered ${since}.`);
  }
  return null;
}
