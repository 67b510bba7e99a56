import type { Queryable } from '../db/client.ts';
import type { Logger } from '../shared/logger.ts';
import { purgeRequests } from './requests.ts';

const PURGE_EVERY_MS = 60 * 60 * 1000;

/**
 * Deletes Connect requests older than the retention period now and every hour, in each process
 * that runs jobs (a delete is idempotent, so several workers doing it is harmless). Returns stop.
 */
export function startPurging(db: Queryable, days: number, logger: Logger): () => void {
  const purge = () => {
    purgeRequests(db, days).then(
      (count) => {
        if (count > 0) logger.info({ purged: count }, 'purged old Connect profile requests');
      },
      (error: unknown) => logger.warn({ err: error }, 'could not purge old Connect profile requests'),
    );
  };
  const timer = setInterval(purge, PURGE_EVERY_MS);
  timer.unref();
  purge();
  return () => clearInterval(timer);
}
