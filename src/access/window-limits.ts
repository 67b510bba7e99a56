import { createHash } from 'node:crypto';
import type { Queryable } from '../db/client.ts';
import { AppError } from '../shared/errors.ts';

export const HOUR_SECONDS = 3600;
export const DAY_SECONDS = 86_400;

/**
 * At most `limit` events per `key` in each fixed window of the clock (an hour, a UTC day). The
 * counts are rows of the database (`limit_windows`), so every process on one database counts
 * against the same window, Redis or not; these limits guard slow, rare things (a test
 * submitted, an account asked for), where a row per event costs nothing. Per-minute limits of
 * API calls stay in the rate limiter (src/access/rate-limit.ts).
 */
export interface WindowLimit {
  /** What is counted, e.g. `test:link:<id>`; stored only as a SHA-256, so no address or network is kept. */
  key: string;
  limit: number;
  windowSeconds: number;
  /** The refusal's first sentence; "Try again in …" follows. */
  refusal: string;
}

// Counts only admitted events: at the limit the update matches nothing and returns no row.
const HIT = `INSERT INTO limit_windows (key_hash, window_start, hits) VALUES ($1, $2, 1)
  ON CONFLICT (key_hash, window_start) DO UPDATE SET hits = limit_windows.hits + 1 WHERE limit_windows.hits < $3
  RETURNING hits`;

function keyHash(limit: WindowLimit): string {
  return createHash('sha256').update(`${limit.windowSeconds}|${limit.key}`).digest('hex');
}

function describeWait(seconds: number): string {
  if (seconds < 120) return `${seconds} seconds`;
  if (seconds < 2 * HOUR_SECONDS) return `${Math.ceil(seconds / 60)} minutes`;
  return `${Math.ceil(seconds / HOUR_SECONDS)} hours`;
}

/**
 * Counts one event against each limit, in order; the first limit reached throws a
 * `rate_limited` AppError with the seconds until its window ends. Run it in the transaction
 * that stores the event: a refusal, or any later failure, rolls the counts back with it, so
 * only events that happened count, and the row lock orders events of one key across processes.
 */
export async function hitWindowLimits(tx: Queryable, limits: readonly WindowLimit[], nowMs = Date.now()): Promise<void> {
  for (const limit of limits) {
    const windowMs = limit.windowSeconds * 1000;
    const start = Math.floor(nowMs / windowMs) * windowMs;
    const admitted = await tx.query(HIT, [keyHash(limit), new Date(start), limit.limit]);
    if (admitted.length === 0) {
      const seconds = Math.max(1, Math.ceil((start + windowMs - nowMs) / 1000));
      throw new AppError('rate_limited', `${limit.refusal} Try again in ${describeWait(seconds)}.`, { retryAfterSeconds: seconds });
    }
  }
}

/** Drops windows that ended over a day ago (the hourly purge). */
export async function purgeEndedWindows(db: Queryable): Promise<number> {
  const rows = await db.query('DELETE FROM limit_windows WHERE window_start < now() - interval \'2 days\' RETURNING key_hash');
  return rows.length;
}
