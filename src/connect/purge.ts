import { purgeEndedWindows } from '../access/window-limits.ts';
import { purgeExpiredConfirmations } from '../confirmations/tokens.ts';
import type { Db } from '../db/client.ts';
import { purgeFinishedJobs } from '../jobs/queue.ts';
import type { Logger } from '../shared/logger.ts';
import { purgeFinishedDeliveries } from '../webhooks/endpoints.ts';
import { purgeRequests } from './requests.ts';

const PURGE_EVERY_MS = 60 * 60 * 1000;

/**
 * Deletes Connect requests, finished jobs and finished webhook deliveries older than the
 * retention period now and every hour, with expired confirmation links and the counts of ended limit windows, in each process that runs jobs (a delete is idempotent, so several workers doing it is
 * harmless). The embedded database has no autovacuum, so after deleting jobs it vacuums their
 * table itself: otherwise dead rows pile up under the claim's index scans. Returns stop.
 */
export function startPurging(db: Db, days: number, logger: Logger): () => void {
  const purge = async () => {
    const requests = await purgeRequests(db, days);
    if (requests > 0) logger.info({ purged: requests }, 'purged old Connect profile requests');
    const jobs = await purgeFinishedJobs(db, days);
    if (jobs > 0) {
      logger.info({ purged_jobs: jobs }, 'purged finished jobs');
      if (db.kind === 'embedded') await db.exec('VACUUM jobs');
    }
    const deliveries = await purgeFinishedDeliveries(db, days);
    if (deliveries > 0) logger.info({ purged_deliveries: deliveries }, 'purged finished webhook deliveries');
    await purgeExpiredConfirmations(db);
    await purgeEndedWindows(db);
  };
  const run = () => {
    purge().catch((error: unknown) => logger.warn({ err: error }, 'could not purge old Connect requests and finished jobs'));
  };
  const timer = setInterval(run, PURGE_EVERY_MS);
  timer.unref();
  run();
  return () => clearInterval(timer);
}
