import type { Db } from '../db/client.ts';
import type { Job } from '../jobs/queue.ts';
import type { Logger } from '../shared/logger.ts';
import { failDelivery, loadPending, recordOutcomes, type DeliveryOutcome, type EndpointOutcome, type PendingDelivery } from './deliveries.ts';
import { nextAttemptAt, type RetryPolicy } from './schedule.ts';
import type { AttemptResult } from './sender.ts';
import { signedHeaders } from './signing.ts';

/** Deliveries claimed together (src/jobs/batch.ts, fair between endpoints). */
export const DELIVERY_BATCH = 32;
/** Attempts in flight to one endpoint at once: a receiver is not flooded by a backlog. */
const PER_ENDPOINT_AT_ONCE = 8;
/** Batches in hand at once: a batch waiting on a slow receiver does not hold up the others' events. */
export const DELIVERY_LANES = 4;

/** The lease of a delivery batch: its longest possible run (every round of attempts timing out) and a margin. */
export function deliveryLeaseSeconds(timeoutMs: number): number {
  return Math.ceil((Math.ceil(DELIVERY_BATCH / PER_ENDPOINT_AT_ONCE) * timeoutMs) / 1000) + 10;
}

export interface DeliveryDeps {
  db: Db;
  sender: { send(url: string, headers: Record<string, string>, body: string): Promise<AttemptResult> };
  retry: RetryPolicy;
  logger: Logger;
  /** Asks the job worker to look for work at `when`: a retry sooner than the next poll goes out on time. */
  wakeAt?: (when: Date) => void;
}

function deliveryIdOf(job: Job): string | null {
  const id = job.payload.delivery_id;
  return typeof id === 'string' ? id : null;
}

function duration(ms: number): string {
  if (ms >= 3_600_000) return `${Math.round(ms / 3_600_000)} h`;
  if (ms >= 60_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 1000)} s`;
}

/**
 * One endpoint's share of a batch, oldest first, a few at a time. At its first failure the
 * endpoint is taken to be down: its deliveries not yet started are not tried now but wait for
 * the failed one's next attempt (not counted as attempts), so a receiver that is down costs one
 * timeout per batch, not one per event.
 */
async function deliverToEndpoint(deps: DeliveryDeps, list: readonly PendingDelivery[]): Promise<{ outcomes: DeliveryOutcome[]; endpoint: EndpointOutcome | null }> {
  const first = list[0];
  if (!first) return { outcomes: [], endpoint: null };
  if (first.disabled) {
    return { outcomes: list.map((d) => ({ id: d.id, endpointId: d.endpointId, state: 'failed', tried: false, status: null, error: 'The endpoint is disabled.' })), endpoint: null };
  }
  const outcomes: DeliveryOutcome[] = [];
  const queue = [...list];
  // Written by the attempts as they end (a holder, so the reads below see their writes).
  const state: { failure: { result: AttemptResult; at: Date | null } | null; succeeded: boolean } = { failure: null, succeeded: false };
  const attempt = async (d: PendingDelivery) => {
    const result = await deps.sender.send(d.url, signedHeaders(d, d.id, d.body, new Date()), d.body);
    if (result.ok) {
      state.succeeded = true;
      outcomes.push({ id: d.id, endpointId: d.endpointId, state: 'delivered', status: result.status ?? 200 });
      return;
    }
    const at = nextAttemptAt(d.attempts + 1, d.createdAt, new Date(), deps.retry, result.retryAfterMs);
    state.failure ??= { result, at };
    const error = result.error ?? 'The attempt failed.';
    outcomes.push(
      at === null
        ? { id: d.id, endpointId: d.endpointId, state: 'failed', tried: true, status: result.status, error: `${error} Retried for ${duration(deps.retry.retryForMs)}; given up.` }
        : { id: d.id, endpointId: d.endpointId, state: 'retry', tried: true, status: result.status, error, next: at },
    );
  };
  const slot = async () => {
    while (state.failure === null) {
      const d = queue.shift();
      if (d === undefined) return;
      await attempt(d);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PER_ENDPOINT_AT_ONCE, list.length) }, slot));
  // Not started: the endpoint failed meanwhile. They come back with the failed attempt.
  const now = new Date();
  for (const d of queue) {
    const at = state.failure?.at ?? nextAttemptAt(d.attempts, d.createdAt, now, deps.retry);
    const deadline = d.createdAt.getTime() + deps.retry.retryForMs;
    outcomes.push(
      at === null || now.getTime() >= deadline
        ? { id: d.id, endpointId: d.endpointId, state: 'failed', tried: false, status: null, error: `Retried for ${duration(deps.retry.retryForMs)}; given up.` }
        : { id: d.id, endpointId: d.endpointId, state: 'retry', tried: false, status: null, error: null, next: new Date(Math.min(at.getTime(), deadline)) },
    );
  }
  const recovered = state.succeeded && first.failingSince !== null;
  return { outcomes, endpoint: { id: first.endpointId, succeeded: state.succeeded, recovered, disabledReason: disableReason(deps, first, state.succeeded, state.failure) } };
}

/** 410 Gone at once (Standard Webhooks); otherwise a whole retry window of nothing but failures. */
function disableReason(deps: DeliveryDeps, endpoint: PendingDelivery, succeeded: boolean, failure: { result: AttemptResult } | null): string | null {
  if (failure === null || succeeded) return null;
  if (failure.result.gone) return 'The receiver answered 410 Gone: it wants no more webhooks.';
  if (endpoint.failingSince === null || Date.now() - endpoint.failingSince.getTime() < deps.retry.retryForMs) return null;
  return `Every attempt failed for ${duration(deps.retry.retryForMs)}; the last: ${failure.result.error ?? 'failed'}`;
}

/**
 * The delivery jobs, a batch at a time: the batch's pending deliveries are loaded in one
 * statement, sent (endpoints side by side, each a few at a time), and recorded in one
 * transaction with their retries. A retry is a new job due at the next attempt, so the job that
 * ran is always done; a delivery already delivered (its job run again after a crash) is skipped.
 */
export function webhookDeliveryJobs(deps: DeliveryDeps) {
  return {
    async run(jobs: readonly Job[]): Promise<Map<string, string>> {
      const pending = await loadPending(deps.db, jobs.flatMap((job) => deliveryIdOf(job) ?? []));
      const byEndpoint = new Map<string, PendingDelivery[]>();
      for (const d of pending) byEndpoint.set(d.endpointId, [...(byEndpoint.get(d.endpointId) ?? []), d]);
      const results = await Promise.all([...byEndpoint.values()].map((list) => deliverToEndpoint(deps, list)));
      const endpoints = results.flatMap((r) => (r.endpoint ? [r.endpoint] : []));
      const disabled = new Map(endpoints.flatMap((e) => (e.disabledReason ? [[e.id, e.disabledReason] as const] : [])));
      // An endpoint disabled now takes its retries with it: they fail with the reason.
      const outcomes = results.flatMap((r) => r.outcomes).map((o): DeliveryOutcome => {
        const reason = disabled.get(o.endpointId);
        return reason !== undefined && o.state === 'retry' ? { id: o.id, endpointId: o.endpointId, state: 'failed', tried: o.tried, status: o.status, error: `The endpoint was disabled: ${reason}` } : o;
      });
      await deps.db.transaction((tx) => recordOutcomes(tx, outcomes, endpoints));
      const soonest = Math.min(...outcomes.flatMap((o) => (o.state === 'retry' ? [o.next.getTime()] : [])));
      if (Number.isFinite(soonest)) deps.wakeAt?.(new Date(soonest));
      for (const [id, reason] of disabled) deps.logger.warn({ endpoint_id: id, reason }, 'webhook endpoint disabled');
      return new Map();
    },
    /** The handler itself failed three times (the database, say): the delivery fails rather than stay pending with no job. */
    async giveUp(job: Job, error: string): Promise<void> {
      const id = deliveryIdOf(job);
      if (id) await failDelivery(deps.db, id, `Could not be sent: ${error}`);
    },
  };
}
