import type { Queryable } from '../db/client.ts';
import { enqueueJobs, runOwnersJobsNow } from '../jobs/queue.ts';
import { WEBHOOK_JOB } from './events.ts';

/** A pending delivery with what its attempt needs from its endpoint. */
export interface PendingDelivery {
  id: string;
  endpointId: string;
  body: string;
  attempts: number;
  createdAt: Date;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousUntil: Date | null;
  failingSince: Date | null;
  disabled: boolean;
}

type PendingRow = {
  id: string;
  endpoint_id: string;
  body: string | null;
  attempts: number;
  created_at: Date | string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Date | string | null;
  failing_since: Date | string | null;
  disabled_at: Date | string | null;
};

const dateOrNull = (value: Date | string | null) => (value === null ? null : new Date(value));

/** The pending deliveries among `ids`, oldest first; delivered, failed or deleted ones are left out. */
export async function loadPending(db: Queryable, ids: readonly string[]): Promise<PendingDelivery[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<PendingRow>(
    `SELECT d.id, d.endpoint_id, d.body, d.attempts, d.created_at, e.url, e.secret, e.previous_secret, e.previous_secret_until, e.failing_since, e.disabled_at
     FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
     WHERE d.id = ANY($1::text[]) AND d.status = 'pending'
     ORDER BY d.created_at, d.id`,
    [[...ids]],
  );
  return rows.map((row) => ({
    id: row.id,
    endpointId: row.endpoint_id,
    body: row.body ?? '',
    attempts: row.attempts,
    createdAt: new Date(row.created_at),
    url: row.url,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousUntil: dateOrNull(row.previous_secret_until),
    failingSince: dateOrNull(row.failing_since),
    disabled: row.disabled_at !== null,
  }));
}

/** What became of one delivery in a batch. */
export type DeliveryOutcome =
  | { id: string; endpointId: string; state: 'delivered'; status: number }
  /** Tried and failed, or (tried false) not tried because its endpoint had just failed: again at `next`. */
  | { id: string; endpointId: string; state: 'retry'; tried: boolean; status: number | null; error: string | null; next: Date }
  | { id: string; endpointId: string; state: 'failed'; tried: boolean; status: number | null; error: string };

/** How each endpoint fared in a batch: any success clears its failing streak. */
export interface EndpointOutcome {
  id: string;
  succeeded: boolean;
  /** It had been failing and answered now: its deliveries waiting out a back-off are due at once. */
  recovered: boolean;
  /** Set when this batch disables it (410 Gone, or a day of failures). */
  disabledReason: string | null;
}

/**
 * Records a batch in one transaction: each delivery's state (a finished one loses its body and
 * the address it named), each endpoint's streak or disabling, and the retries' jobs, due at
 * their next attempt. A retry is a new job: the one that ran is done, so the queue's own retry
 * rule (three tries, for crashes) never applies to a receiver's failures.
 */
export async function recordOutcomes(tx: Queryable, deliveries: readonly DeliveryOutcome[], endpoints: readonly EndpointOutcome[]): Promise<void> {
  const rows = deliveries.map((o) => ({
    id: o.id,
    status: o.state === 'retry' ? 'pending' : o.state,
    tried: o.state === 'delivered' || o.tried ? 1 : 0,
    last_status: o.status,
    last_error: o.state === 'delivered' ? null : o.error,
    next_attempt_at: o.state === 'retry' ? o.next.toISOString() : null,
  }));
  // The endpoints first, in one order: removing an endpoint locks its row, then its deliveries'
  // (ON DELETE CASCADE). Updating the deliveries first and the endpoint after was the opposite
  // order, and on PostgreSQL a removal during a batch's recording deadlocked (the DELETE got a 500).
  const endpointIds = [...new Set([...deliveries.map((o) => o.endpointId), ...endpoints.map((e) => e.id)])].sort();
  if (endpointIds.length > 0) await tx.query('SELECT id FROM webhook_endpoints WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE', [endpointIds]);
  if (rows.length > 0) {
    await tx.query(
      `UPDATE webhook_deliveries AS d SET
         status = r.status,
         attempts = d.attempts + r.tried,
         last_status = CASE WHEN r.tried > 0 OR r.status = 'failed' THEN r.last_status ELSE d.last_status END,
         last_error = CASE WHEN r.tried > 0 OR r.status = 'failed' THEN r.last_error ELSE d.last_error END,
         next_attempt_at = r.next_attempt_at,
         finished_at = CASE WHEN r.status = 'pending' THEN NULL ELSE now() END,
         body = CASE WHEN r.status = 'pending' THEN d.body END,
         email_normalized = CASE WHEN r.status = 'pending' THEN d.email_normalized END
       FROM jsonb_to_recordset($1::jsonb) AS r(id text, status text, tried integer, last_status integer, last_error text, next_attempt_at timestamptz)
       WHERE d.id = r.id AND d.status = 'pending'`,
      [JSON.stringify(rows)],
    );
  }
  if (endpoints.length > 0) {
    await tx.query(
      `UPDATE webhook_endpoints AS e SET
         failing_since = CASE WHEN r.succeeded THEN NULL ELSE coalesce(e.failing_since, now()) END,
         disabled_at = CASE WHEN r.disabled_reason IS NOT NULL AND e.disabled_at IS NULL THEN now() ELSE e.disabled_at END,
         disabled_reason = CASE WHEN r.disabled_reason IS NOT NULL AND e.disabled_at IS NULL THEN r.disabled_reason ELSE e.disabled_reason END
       FROM jsonb_to_recordset($1::jsonb) AS r(id text, succeeded boolean, disabled_reason text)
       WHERE e.id = r.id`,
      [JSON.stringify(endpoints.map((e) => ({ id: e.id, succeeded: e.succeeded, disabled_reason: e.disabledReason })))],
    );
  }
  // A receiver back after an outage gets its backlog now, not at each delivery's next back-off
  // (hours, after a long outage); the retries this batch is about to queue keep their own times.
  const recovered = endpoints.filter((e) => e.recovered && e.disabledReason === null).map((e) => e.id);
  if (recovered.length > 0) {
    await tx.query(
      `UPDATE webhook_deliveries SET next_attempt_at = now()
       WHERE endpoint_id = ANY($1::text[]) AND status = 'pending' AND next_attempt_at > now()`,
      [recovered],
    );
    await runOwnersJobsNow(tx, WEBHOOK_JOB, recovered);
  }
  // A disabled endpoint's other pending deliveries (in other batches, or waiting for a retry) end now too.
  const disabled = endpoints.filter((e) => e.disabledReason !== null);
  if (disabled.length > 0) {
    await tx.query(
      `UPDATE webhook_deliveries AS d SET status = 'failed', last_error = 'The endpoint was disabled: ' || r.reason, finished_at = now(), next_attempt_at = NULL, body = NULL, email_normalized = NULL
       FROM jsonb_to_recordset($1::jsonb) AS r(id text, reason text)
       WHERE d.endpoint_id = r.id AND d.status = 'pending'`,
      [JSON.stringify(disabled.map((e) => ({ id: e.id, reason: e.disabledReason })))],
    );
  }
  const retries = deliveries.flatMap((o) => (o.state === 'retry' ? [{ kind: WEBHOOK_JOB, payload: { delivery_id: o.id }, owner: o.endpointId, runAfter: o.next }] : []));
  await enqueueJobs(tx, retries);
}

/** A delivery whose job gave up (its handler failed three times): it fails for good, so it is never left pending without a job. */
export async function failDelivery(db: Queryable, id: string, error: string): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET status = 'failed', last_error = $2, finished_at = now(), next_attempt_at = NULL, body = NULL, email_normalized = NULL
     WHERE id = $1 AND status = 'pending'`,
    [id, error.slice(0, 500)],
  );
}
