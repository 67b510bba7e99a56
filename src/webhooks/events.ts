import { statement, type Queryable } from '../db/client.ts';
import { enqueueJobs } from '../jobs/queue.ts';
import { newId } from '../shared/ids.ts';

/** The events an endpoint may subscribe to, each for one kind of owner (docs/api-decisions.md#webhooks). */
export const EVENT_TYPES = ['connect.search.finished', 'analysis.finished', 'assessment.completed', 'assessment.deleted'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** Sent only when the owner asks for it (`webhooks test`): never subscribed to. */
export const TEST_EVENT = 'webhook.test';

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

/**
 * Whose an endpoint is: an organisation's connect token, an enterprise token, or a registered
 * user (their dashboard, their assessment token). Each hears only of its own work.
 */
export type WebhookOwner = { kind: 'connect' | 'enterprise'; tokenId: string } | { kind: 'user'; userId: string };
export type OwnerKind = WebhookOwner['kind'];

export const EVENTS_FOR: Record<OwnerKind, readonly EventType[]> = {
  connect: ['connect.search.finished'],
  enterprise: ['analysis.finished'],
  user: ['assessment.completed', 'assessment.deleted'],
};

/** Something that happened to an owner's work, to be sent to the owner's endpoints that want it. */
export interface WebhookEvent {
  owner: { tokenId: string } | { userId: string };
  type: EventType;
  data: Record<string, unknown>;
  /** The person an assessment event names (normalised), so `rapport people delete` finds its deliveries. */
  emailNormalized?: string | null;
}

/**
 * The `assessment.deleted` event: the result's user is told so they can delete their copy
 * (whoever deleted it: the taker, or the operator erasing the person). It names the address,
 * which is how the user's records know the person (/find takes it). Here, below takers/ and
 * people/, because both delete results (takers/remove.ts, people/forget.ts).
 */
export function resultDeleted(result: { id: string; userId: string; email: string; emailNormalized: string }): WebhookEvent {
  return { owner: { userId: result.userId }, type: 'assessment.deleted', data: { result_id: result.id, email: result.email }, emailNormalized: result.emailNormalized };
}

/** The job that makes one attempt at a delivery (src/webhooks/delivery-jobs.ts). */
export const WEBHOOK_JOB = 'webhook_delivery';

/**
 * The body every attempt sends, as Standard Webhooks lays it out: `type`, `timestamp` (when
 * the event happened, the same on every attempt) and `data`. Serialised once: the bytes
 * signed are the bytes sent.
 */
export function eventBody(type: string, at: Date, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

export interface NewDelivery {
  id: string;
  endpointId: string;
  eventType: string;
  body: string;
  emailNormalized: string | null;
}

/** Stores deliveries and queues their first attempts, in the caller's transaction. */
export async function queueDeliveries(tx: Queryable, deliveries: readonly NewDelivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  const rows = deliveries.map((d) => ({ id: d.id, endpoint_id: d.endpointId, event_type: d.eventType, body: d.body, email_normalized: d.emailNormalized }));
  await tx.query(
    `INSERT INTO webhook_deliveries (id, endpoint_id, event_type, body, email_normalized, next_attempt_at)
     SELECT r.id, r.endpoint_id, r.event_type, r.body, r.email_normalized, now()
     FROM jsonb_to_recordset($1::jsonb) AS r(id text, endpoint_id text, event_type text, body text, email_normalized text)`,
    [JSON.stringify(rows)],
  );
  // Owned by the endpoint: the queue takes turns between endpoints, so one receiver's backlog
  // does not hold up another's events.
  await enqueueJobs(tx, deliveries.map((d) => ({ kind: WEBHOOK_JOB, payload: { delivery_id: d.id }, owner: d.endpointId })));
}

const SUBSCRIBED = statement(
  'webhook_endpoints_subscribed',
  `SELECT id, owner_token_id, owner_user_id, events FROM webhook_endpoints
   WHERE disabled_at IS NULL AND (owner_token_id = ANY($1::text[]) OR owner_user_id = ANY($2::text[]))`,
);

type SubscribedRow = { id: string; owner_token_id: string | null; owner_user_id: string | null; events: string[] };

/**
 * Fans events out to the enabled endpoints of their owners that subscribe to them: a delivery
 * and its first job each. Called in the same transaction that records what happened (a search's
 * outcome, a stored result), so an event is queued exactly when its cause is committed: a
 * crash loses neither, and a rolled-back cause sends nothing. Returns how many were queued, so
 * the caller wakes its worker only when there is something to send. One lookup when nobody has
 * an endpoint.
 */
export async function emitWebhookEvents(tx: Queryable, events: readonly WebhookEvent[], at = new Date()): Promise<number> {
  if (events.length === 0) return 0;
  const tokenIds = [...new Set(events.flatMap((e) => ('tokenId' in e.owner ? [e.owner.tokenId] : [])))];
  const userIds = [...new Set(events.flatMap((e) => ('userId' in e.owner ? [e.owner.userId] : [])))];
  const endpoints = await tx.run<SubscribedRow>(SUBSCRIBED, [tokenIds, userIds]);
  if (endpoints.length === 0) return 0;
  const deliveries: NewDelivery[] = [];
  for (const event of events) {
    const ownerId = 'tokenId' in event.owner ? event.owner.tokenId : event.owner.userId;
    const body = eventBody(event.type, at, event.data);
    for (const endpoint of endpoints) {
      if ((endpoint.owner_token_id ?? endpoint.owner_user_id) !== ownerId || !endpoint.events.includes(event.type)) continue;
      deliveries.push({ id: newId('msg'), endpointId: endpoint.id, eventType: event.type, body, emailNormalized: event.emailNormalized ?? null });
    }
  }
  await queueDeliveries(tx, deliveries);
  return deliveries.length;
}
