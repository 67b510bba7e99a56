import type { Redis } from 'ioredis';
import type { RateLimitDecision, RateLimiter } from './rate-limit.ts';

const WINDOW_MS = 60_000;
/** Past this many refused keys, expired entries are dropped before another is added. */
const MAX_BLOCKED = 10_000;

/**
 * One round trip and one short script per call: count the call, start the window's expiry on
 * its first call, answer the count and the time left. Atomic in Redis, so every process counts
 * against the same window. A key left without an expiry (never, but it would never reset) gets
 * one. The window starts at a key's first call, as rate-limiter-flexible's did before it.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  return {count, tonumber(ARGV[1])}
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

type ScriptedRedis = Redis & { rapportRateHit(key: string, windowMs: string): Promise<[number, number]> };

function scripted(redis: Redis): ScriptedRedis {
  // ioredis sends EVALSHA and loads the script itself on NOSCRIPT (after a Redis restart).
  if (!('rapportRateHit' in redis)) redis.defineCommand('rapportRateHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  return redis as ScriptedRedis;
}

/**
 * Per-minute windows kept in Redis, so every API process counts against one window per key
 * (a token's calls, a log-in account, a client address). When Redis cannot answer, the call is
 * let through: a lost Redis must not take the API down with it, and the monthly quota (in the
 * database) still holds. `onFailOpen` is told each time, for the log and the metric.
 *
 * A key found over its limit is refused here, without asking Redis, until its window ends:
 * a window only counts up, so Redis would give the same answer, and a caller hammering a
 * refused token (or a password guesser) costs no round trip. A raised limit is asked again.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: ScriptedRedis;
  private readonly blocked = new Map<string, { untilMs: number; limit: number }>();

  constructor(
    redis: Redis,
    private readonly onFailOpen: (error: unknown) => void,
    private readonly keyPrefix = 'rapport:rate',
  ) {
    this.redis = scripted(redis);
  }

  async hit(key: string, limit: number, nowMs: number): Promise<RateLimitDecision> {
    const block = this.blocked.get(key);
    if (block) {
      if (block.untilMs > nowMs && limit <= block.limit) return { allowed: false, limit, remaining: 0, resetInMs: block.untilMs - nowMs };
      this.blocked.delete(key);
    }
    // Answer at once while disconnected instead of waiting for a reconnect.
    if (this.redis.status !== 'ready') return this.failOpen(new Error(`Redis connection is ${this.redis.status}`), limit, nowMs);
    let count: number;
    let ttl: number;
    try {
      [count, ttl] = await this.redis.rapportRateHit(`${this.keyPrefix}:${key}`, String(WINDOW_MS));
    } catch (error) {
      return this.failOpen(error, limit, nowMs);
    }
    const resetInMs = Math.max(0, Math.min(WINDOW_MS, ttl));
    if (count > limit) {
      this.block(key, { untilMs: nowMs + resetInMs, limit }, nowMs);
      return { allowed: false, limit, remaining: 0, resetInMs };
    }
    return { allowed: true, limit, remaining: limit - count, resetInMs };
  }

  private failOpen(error: unknown, limit: number, nowMs: number): RateLimitDecision {
    this.onFailOpen(error);
    return { allowed: true, limit, remaining: limit, resetInMs: WINDOW_MS - (nowMs % WINDOW_MS) };
  }

  private block(key: string, entry: { untilMs: number; limit: number }, nowMs: number): void {
    if (this.blocked.size >= MAX_BLOCKED) {
      for (const [other, { untilMs }] of this.blocked) if (untilMs <= nowMs) this.blocked.delete(other);
      // Still full of live blocks: forget the oldest; Redis still refuses them, at one round trip.
      if (this.blocked.size >= MAX_BLOCKED) {
        const oldest = this.blocked.keys().next();
        if (!oldest.done) this.blocked.delete(oldest.value);
      }
    }
    this.blocked.set(key, entry);
  }
}
