import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../../monitoring/metrics.ts';
import type { OverloadMonitor } from '../../monitoring/overload.ts';
import { AppError } from '../../shared/errors.ts';

/** Seconds a shed caller is asked to wait: long enough for a lagging process to catch up. */
const RETRY_AFTER_SECONDS = 5;

/** Answer even under overload: a load balancer must still see the process alive, and the operator its metrics. */
const EXEMPT = new Set(['/healthz', '/metrics']);

/**
 * Load shedding: while the process is overloaded (src/monitoring/overload.ts), requests get 503 with
 * Retry-After at once instead of queueing until they time out, so the process recovers rather
 * than falling over.
 */
export function installLoadShedding(app: FastifyInstance, monitor: OverloadMonitor, metrics: Metrics): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const cause = monitor.cause();
    if (cause === null || EXEMPT.has(request.url.split('?', 1)[0] ?? '')) return done();
    metrics.shed.inc({ cause });
    throw new AppError('unavailable', `The service is overloaded; retry in ${RETRY_AFTER_SECONDS} s.`, { retryAfterSeconds: RETRY_AFTER_SECONDS });
  });
}
