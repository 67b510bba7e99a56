import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitDecision, RateLimiter } from './rate-limit.ts';

const WINDOW_SECONDS = 60;

/**
 * Per-minute windows kept in Redis, so every API process counts against one window per token
 * (rate-limiter-flexible's atomic counter). When Redis cannot answer, the call is let through:
 * a lost Redis must not take the API down with it, and the monthly quota (in the database)
 * still holds. `onFailOpen` is told each time, for the log and the metric.
 */
export class RedisRateLimiter implements RateLimiter {
  /** rate-limiter-flexible fixes the limit per instance; tokens have their own, so one per limit. */
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
      if (rejection instanceof RateLimiterRes) return { allowed: false, limit, remaining: 0, resetInMs: rejection.msBeforeNext };
      this.onFailOpen(rejection);
      return { allowed: true, limit, remaining: limit, resetInMs: WINDOW_SECONDS * 1000 - (nowMs % (WINDOW_SECONDS * 1000)) };
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
      });
      this.byLimit.set(limit, limiter);
    }
    return limiter;
  }
}
