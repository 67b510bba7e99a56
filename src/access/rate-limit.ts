/**
 * Per-minute windows. The in-process default is exact for one process; several API processes
 * behind a load balancer should share windows through an implementation backed by Redis.
 */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until the current window ends. */
  resetInMs: number;
}

export interface RateLimiter {
  hit(key: string, limit: number, nowMs: number): Promise<RateLimitDecision>;
}

const WINDOW_MS = 60_000;

/** Fixed one-minute windows aligned to the clock minute. */
export class MemoryRateLimiter implements RateLimiter {
  private windows = new Map<string, { start: number; count: number }>();

  async hit(key: string, limit: number, nowMs: number): Promise<RateLimitDecision> {
    const start = nowMs - (nowMs % WINDOW_MS);
    let window = this.windows.get(key);
    if (!window || window.start !== start) {
      if (this.windows.size > 50_000) this.prune(start);
      window = { start, count: 0 };
      this.windows.set(key, window);
    }
    const resetInMs = start + WINDOW_MS - nowMs;
    if (window.count >= limit) return { allowed: false, limit, remaining: 0, resetInMs };
    window.count += 1;
    return { allowed: true, limit, remaining: limit - window.count, resetInMs };
  }

  private prune(currentStart: number): void {
    for (const [key, window] of this.windows) if (window.start !== currentStart) this.windows.delete(key);
  }
}
