import { Redis } from 'ioredis';

export class RedisUnavailableError extends Error {
  constructor(url: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`Redis at ${redactRedisUrl(url)} (REDIS_URL) is not reachable: ${reason}`, { cause });
    this.name = 'RedisUnavailableError';
  }
}

/** The URL without its password, for messages and logs. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'redis://…';
  }
}

/**
 * Connects to Redis or fails the start with a message that names REDIS_URL. Once running, a lost
 * connection is retried in the background and commands fail fast meanwhile (no offline queue),
 * so callers can fail open instead of waiting. Commands issued in the same turn of the event
 * loop (one per request under load) go out in one write and come back in one read
 * (auto-pipelining): fewer system calls for this process and for redis-server, which on a
 * small machine share the same cores.
 */
export async function connectRedis(url: string, timeoutMs = 5000): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    connectTimeout: timeoutMs,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  // Errors while running are reported through the callers' fail-open path, not as crashes.
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new RedisUnavailableError(url, error);
  }
  return redis;
}
