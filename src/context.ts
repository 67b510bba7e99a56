import { MemoryRateLimiter, type RateLimiter } from './accounts/rate-limit.ts';
import { TokenAuthenticator } from './accounts/authenticator.ts';
import { UsageMeter } from './accounts/usage.ts';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { Logger } from './shared/logger.ts';

/**
 * Everything a request or a command needs, built once at start-up and passed explicitly.
 * Optional infrastructure (a shared rate limiter, say) is swapped in here.
 */
export interface AppContext {
  config: Config;
  db: Db;
  logger: Logger;
  auth: TokenAuthenticator;
  limiter: RateLimiter;
  meter: UsageMeter;
  /** Stops background work and flushes what is pending; the database is closed by its owner. */
  shutdown(): Promise<void>;
}

export function createContext(config: Config, db: Db, logger: Logger): AppContext {
  const meter = new UsageMeter(db, 1000, (error) => logger.error({ err: error }, 'usage counts could not be written; will retry'));
  meter.start();
  return {
    config,
    db,
    logger,
    auth: new TokenAuthenticator(db),
    limiter: new MemoryRateLimiter(),
    meter,
    async shutdown() {
      await meter.stop();
    },
  };
}
