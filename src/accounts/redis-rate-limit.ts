import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitDecision, RateLimiter } from './rate-limit.ts';

const WINDOW_SECONDS = 60;
const WINDOW_MS = WINDOW_SECONDS * 1000;

/**
 * Per-minute windows kept in Redis, so every API process counts against one window per key
 * (a token's calls, a log-in account, a client address): rate-limiter-flexible's atomic
 * counter, one short script per call (EVALSHA; ioredis loads it again after a Redis restart or
 * SCRIPT FLUSH). The connection auto-pipelines (src/shared/redis.ts), so the calls of one
 * event-loop turn share one write. When Redis cannot answer, the call is let through: a lost
 * Redis must not take the API down with it, and the monthly quota (in the database) still
 * holds. `onFailOpen` is told each time, for the log and the metric.
 *
 * A key found over its limit is refused in this process, without asking Redis, until its
 * window ends (the library's in-memory block): a window only counts up, so Redis would give
 * the same answer, and a caller hammering a refused token (or a password guesser) costs no
 * round trip. The library fixes the limit per instance; tokens have their own, so there is one
 * instance per limit, and a raised limit is asked of Redis again.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly byLimit = new Map<number, RateLimiterRedis>();

  constructor(
    private readonly redis: Redis,
    private readonly onFailOpen: (error: unknown) => void,
    private readonly keyPrefix = 'rapport:rate',
  ) {}

  async hit(key: string, limit: number, nowMs: number): Promise<RateLimitDecision> {
    try {
      const result = await this.limiterFor(limit).consume(key, 1);
      return { allowed: true, limit, remaining: Math.max(0, limit - result.consumedPoints), resetInMs: result.msBeforeNext };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return { allowed: false, limit, remaining: 0, resetInMs: Math.max(0, rejection.msBeforeNext) };
      this.onFailOpen(rejection);
      return { allowed: true, limit, remaining: limit, resetInMs: WINDOW_MS - (nowMs % WINDOW_MS) };
    }
  }

  private limiterFor(limit: number): RateLimiterRedis {
    let limiter = this.byLimit.get(limit);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: this.redis,
        points: limit,
        duration: WINDOW_SECONDS,
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
