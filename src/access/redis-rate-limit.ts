import type { Redis } from 'ioredis';
import type * as RateLimiterFlexible from 'rate-limiter-flexible';
import { loadOnUse } from '../shared/load-on-use.ts';
import type { RateLimitDecision, RateLimiter } from './rate-limit.ts';

const WINDOW_SECONDS = 60;
/** A lease this large is at most 1 % of the limit: what one process can leave unused in a window. */
const LEASE_SHARE = 100;
/** A lease used up faster than this asks for twice as many points next time... */
const FAST_MS = 200;
/** ...and one that lasted longer than this for half as many. */
const SLOW_MS = 2000;
/** Leases kept (hot keys); past it, those of ended windows are dropped. */
const MAX_LEASES = 10_000;

/** Points this process took from the shared window and has not handed out yet. */
interface Lease {
  left: number;
  /** When their window ends (epoch ms): points not handed out by then are dropped. */
  until: number;
  /** Points the shared window had left when they were taken (for the Remaining header). */
  sharedLeft: number;
  /** Points the next refill asks for. */
  size: number;
  takenAt: number;
  refill: Promise<RateLimitDecision | null> | null;
}

/**
 * Per-minute windows kept in Redis, so every API process counts against one window per key
 * (a token's calls, a log-in account, a client address): rate-limiter-flexible's atomic
 * counter, one short script per call (EVALSHA; ioredis loads it again after a Redis restart or
 * SCRIPT FLUSH). The connection auto-pipelines (src/shared/redis.ts). When Redis cannot answer,
 * the call is let through: a lost Redis must not take the API down with it, and the monthly
 * quota (in the database) still holds. `onFailOpen` is told each time, for the log and the metric.
 *
 * A busy key does not cost a round trip per call. The process takes points from the shared
 * window in leases and hands them out itself: one point at first, twice as many each time a
 * lease is used up within FAST_MS, at most 1 % of the limit. No call is ever admitted past the
 * limit (each point handed out was counted in Redis, in the window it is used in: a lease is
 * dropped when its window ends); the cost is that a process may leave up to 1 % of the limit
 * unused in a window while another is refused. Limits under 200 a minute are exact, one call
 * one point, as are keys called rarely.
 *
 * A key found over its limit is refused in this process, without asking Redis, until its
 * window ends (the library's in-memory block): a window only counts up, so Redis would give the
 * same answer. The library fixes the limit per instance; tokens have their own, so there is one
 * instance per limit, and a raised limit is asked of Redis again.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly byLimit = new Map<number, RateLimiterFlexible.RateLimiterRedis>();
  private readonly leases = new Map<string, Lease>();
  /**
   * The library (~36 modules) loads with the first limiter that uses Redis (REDIS_URL), not in
   * every process that builds a context.
   */
  private readonly library = loadOnUse('rate-limiter-flexible') as typeof RateLimiterFlexible;

  constructor(
    private readonly redis: Redis,
    private readonly onFailOpen: (error: unknown) => void,
    private readonly keyPrefix = 'rapport:rate',
    private readonly windowSeconds = WINDOW_SECONDS,
  ) {}

  async hit(key: string, limit: number, nowMs: number): Promise<RateLimitDecision> {
    const lease = this.leaseOf(key, limit);
    for (;;) {
      const now = Date.now();
      if (lease.left > 0 && now < lease.until) {
        lease.left -= 1;
        return { allowed: true, limit, remaining: Math.max(0, lease.sharedLeft + lease.left), resetInMs: lease.until - now };
      }
      // Calls arriving while a refill is on its way wait for it rather than send their own.
      lease.refill ??= this.refill(key, limit, lease, nowMs).finally(() => {
        lease.refill = null;
      });
      const outcome = await lease.refill;
      if (outcome !== null) return outcome;
    }
  }

  /** Takes the next lease from Redis; null when points were granted, else the decision (refused, or let through). */
  private async refill(key: string, limit: number, lease: Lease, nowMs: number): Promise<RateLimitDecision | null> {
    const now = Date.now();
    const cap = Math.max(1, Math.floor(limit / LEASE_SHARE));
    if (lease.takenAt > 0) {
      const lasted = now - lease.takenAt;
      if (lasted < FAST_MS) lease.size = Math.min(cap, lease.size * 2);
      else if (lasted > SLOW_MS) lease.size = Math.max(1, Math.floor(lease.size / 2));
    }
    const want = Math.min(lease.size, cap);
    let granted: number;
    let result: RateLimiterFlexible.RateLimiterRes;
    try {
      result = await this.limiterFor(limit).consume(key, want);
      granted = want;
    } catch (rejection) {
      if (!(rejection instanceof this.library.RateLimiterRes)) {
        this.onFailOpen(rejection);
        return { allowed: true, limit, remaining: limit, resetInMs: this.windowSeconds * 1000 - (nowMs % (this.windowSeconds * 1000)) };
      }
      result = rejection;
      // The window had fewer points than asked: those it had are still ours. (A refusal from the
      // in-memory block counts nothing: consumedPoints 0.)
      granted = result.consumedPoints === 0 ? 0 : Math.min(want, Math.max(0, limit - (result.consumedPoints - want)));
    }
    const resetInMs = Math.max(0, result.msBeforeNext);
    if (granted === 0) return { allowed: false, limit, remaining: 0, resetInMs };
    lease.left = granted;
    lease.until = Date.now() + resetInMs;
    lease.sharedLeft = Math.max(0, limit - result.consumedPoints);
    lease.takenAt = Date.now();
    return null;
  }

  private leaseOf(key: string, limit: number): Lease {
    const id = `${limit}|${key}`;
    let lease = this.leases.get(id);
    if (!lease) {
      if (this.leases.size >= MAX_LEASES) this.dropEnded();
      lease = { left: 0, until: 0, sharedLeft: 0, size: 1, takenAt: 0, refill: null };
      this.leases.set(id, lease);
    }
    return lease;
  }

  private dropEnded(): void {
    const now = Date.now();
    for (const [id, lease] of this.leases) if (lease.until <= now && lease.refill === null) this.leases.delete(id);
    // Every lease still live: the oldest go (a dropped lease loses at most its unused points).
    for (const id of this.leases.keys()) {
      if (this.leases.size < MAX_LEASES) break;
      this.leases.delete(id);
    }
  }

  private limiterFor(limit: number): RateLimiterFlexible.RateLimiterRedis {
    let limiter = this.byLimit.get(limit);
    if (!limiter) {
      limiter = new this.library.RateLimiterRedis({
        storeClient: this.redis,
        points: limit,
        duration: this.windowSeconds,
        keyPrefix: this.keyPrefix,
        // Answer at once while disconnected instead of queueing the request behind a reconnect.
        rejectIfRedisNotReady: true,
        // Past the limit, refused here until the window ends (duration 0: the window's own end).
        inMemoryBlockOnConsumed: limit + 1,
      });
      this.byLimit.set(limit, limiter);
    }
    return limiter;
  }
}
