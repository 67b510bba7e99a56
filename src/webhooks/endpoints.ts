import { queryOne, type Queryable } from '../db/client.ts';
import { AppError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { checkWebhookUrl, type AddressPolicy } from './address-check.ts';
import { EVENT_TYPES, EVENTS_FOR, eventBody, isEventType, queueDeliveries, TEST_EVENT, type EventType, type WebhookOwner } from './events.ts';
import { newSecret } from './signing.ts';

/** An owner's endpoints at most: each event is sent to every one of them. */
export const MAX_ENDPOINTS_PER_OWNER = 10;
/** After a rotation the old secret keeps signing (a second signature) this long. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;
const DESCRIPTION_MAX = 200;

/** Whose endpoints a call may see and change: an owner's own, or any (the operator's CLI). */
export type Scope = WebhookOwner | 'operator';

export interface Endpoint {
  id: string;
  ownerTokenId: string | null;
  ownerUserId: string | null;
  url: string;
  events: EventType[];
  description: string;
  createdAt: Date;
  /** Until when the secret before the last rotation still signs; null when none does. */
  previousSecretUntil: Date | null;
  failingSince: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
}

type EndpointRow = {
  id: string;
  owner_token_id: string | null;
  owner_user_id: string | null;
  url: string;
  events: string[];
  description: string;
  created_at: Date | string;
  previous_secret_until: Date | string | null;
  failing_since: Date | string | null;
  disabled_at: Date | string | null;
  disabled_reason: string | null;
};

const COLUMNS = 'id, owner_token_id, owner_user_id, url, events, description, created_at, previous_secret_until, failing_since, disabled_at, disabled_reason';
const date = (value: Date | string | null) => (value === null ? null : new Date(value));

function fromRow(row: EndpointRow): Endpoint {
  const until = date(row.previous_secret_until);
  return {
    id: row.id,
    ownerTokenId: row.owner_token_id,
    ownerUserId: row.owner_user_id,
    url: row.url,
    events: row.events.filter(isEventType),
    description: row.description,
    createdAt: new Date(row.created_at),
    previousSecretUntil: until !== null && until > new Date() ? until : null,
    failingSince: date(row.failing_since),
    disabledAt: date(row.disabled_at),
    disabledReason: row.disabled_reason,
  };
}

/** The SQL condition limiting rows to the scope, with its parameter (numbered `$n`). */
function ownedBy(scope: Scope, n: number): { sql: string; params: string[] } {
  if (scope === 'operator') return { sql: 'true', params: [] };
  return 'tokenId' in scope ? { sql: `owner_token_id = $${n}`, params: [scope.tokenId] } : { sql: `owner_user_id = $${n}`, params: [scope.userId] };
}

const NOT_FOUND = 'No webhook endpoint with this id belongs to you.';

function readEvents(owner: WebhookOwner, events: readonly string[] | undefined): EventType[] {
  const offered = EVENTS_FOR[owner.kind];
  if (events === undefined) return [...offered];
  if (events.length === 0) throw new AppError('bad_request', `Name at least one event; this API offers ${offered.join(', ')}.`);
  for (const event of events) {
    if (!isEventType(event)) throw new AppError('bad_request', `"${event}" is not an event type; the types are ${EVENT_TYPES.join(', ')}.`);
    if (!offered.includes(event)) throw new AppError('bad_request', `"${event}" is not an event of this API; it offers ${offered.join(', ')}.`);
  }
  return [...new Set(events)].filter(isEventType);
}

function readDescription(value: string | undefined): string {
  const text = (value ?? '').trim();
  if (text.length > DESCRIPTION_MAX || /[\p{Cc}]/u.test(text)) throw new AppError('bad_request', `The description must be plain text of at most ${DESCRIPTION_MAX} characters.`);
  return text;
}

export interface NewEndpoint {
  url: string;
  /** Absent: every event this owner's API offers. */
  events?: readonly string[];
  description?: string;
}

/** Registers an endpoint after checking its URL (form, then every address it resolves to). The secret is returned this once. */
export async function createEndpoint(db: Queryable, policy: AddressPolicy, owner: WebhookOwner, input: NewEndpoint): Promise<{ endpoint: Endpoint; secret: string }> {
  const events = readEvents(owner, input.events);
  const description = readDescription(input.description);
  const url = await checkWebhookUrl(input.url, policy);
  const scope = ownedBy(owner, 1);
  const count = await queryOne<{ n: number }>(db, `SELECT count(*)::int AS n FROM webhook_endpoints WHERE ${scope.sql}`, scope.params);
  if ((count?.n ?? 0) >= MAX_ENDPOINTS_PER_OWNER) throw new AppError('conflict', `You have ${MAX_ENDPOINTS_PER_OWNER} webhook endpoints, the most one owner may have; remove one first.`);
  const secret = newSecret();
  const [row] = await db.query<EndpointRow>(
    `INSERT INTO webhook_endpoints (id, owner_token_id, owner_user_id, url, events, description, secret)
     VALUES ($1, $2, $3, $4, $5::text[], $6, $7) RETURNING ${COLUMNS}`,
    [newId('ep'), 'tokenId' in owner ? owner.tokenId : null, 'userId' in owner ? owner.userId : null, url, events, description, secret],
  );
  if (!row) throw new AppError('internal', 'The endpoint was not stored.');
  return { endpoint: fromRow(row), secret };
}

export async function listEndpoints(db: Queryable, scope: Scope): Promise<Endpoint[]> {
  const where = ownedBy(scope, 1);
  const rows = await db.query<EndpointRow>(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE ${where.sql} ORDER BY created_at, id`, where.params);
  return rows.map(fromRow);
}

export async function findEndpoint(db: Queryable, scope: Scope, id: string): Promise<Endpoint> {
  const where = ownedBy(scope, 2);
  const row = await queryOne<EndpointRow>(db, `SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = $1 AND ${where.sql}`, [id, ...where.params]);
  if (!row) throw new AppError('not_found', NOT_FOUND);
  return fromRow(row);
}

/** Removes an endpoint with its deliveries: what was still to be sent is not sent. */
export async function removeEndpoint(db: Queryable, scope: Scope, id: string): Promise<void> {
  const where = ownedBy(scope, 2);
  const rows = await db.query(`DELETE FROM webhook_endpoints WHERE id = $1 AND ${where.sql} RETURNING id`, [id, ...where.params]);
  if (rows.length === 0) throw new AppError('not_found', NOT_FOUND);
}

/**
 * A new secret, returned this once. The old one keeps signing beside it for a day
 * (ROTATION_OVERLAP_MS), so the receiver can switch without losing a webhook; a second rotation
 * within that day ends the first one's overlap.
 */
export async function rotateSecret(db: Queryable, scope: Scope, id: string): Promise<{ endpoint: Endpoint; secret: string }> {
  const where = ownedBy(scope, 4);
  const secret = newSecret();
  const [row] = await db.query<EndpointRow>(
    `UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = now() + make_interval(secs => $3::double precision), secret = $2
     WHERE id = $1 AND ${where.sql} RETURNING ${COLUMNS}`,
    [id, secret, ROTATION_OVERLAP_MS / 1000, ...where.params],
  );
  if (!row) throw new AppError('not_found', NOT_FOUND);
  return { endpoint: fromRow(row), secret };
}

/** Enables an endpoint again after it was disabled; events from now on are sent (those missed meanwhile are not). */
export async function enableEndpoint(db: Queryable, scope: Scope, id: string): Promise<Endpoint> {
  const where = ownedBy(scope, 2);
  const [row] = await db.query<EndpointRow>(
    `UPDATE webhook_endpoints SET disabled_at = NULL, disabled_reason = NULL, failing_since = NULL WHERE id = $1 AND ${where.sql} RETURNING ${COLUMNS}`,
    [id, ...where.params],
  );
  if (!row) throw new AppError('not_found', NOT_FOUND);
  return fromRow(row);
}

/** Queues a `webhook.test` event to this endpoint alone, to try a receiver. Returns the delivery's id (its webhook-id). */
export async function queueTestEvent(db: Queryable, scope: Scope, id: string): Promise<string> {
  const endpoint = await findEndpoint(db, scope, id);
  if (endpoint.disabledAt !== null) throw new AppError('conflict', 'This endpoint is disabled; enable it first.');
  const deliveryId = newId('msg');
  const body = eventBody(TEST_EVENT, new Date(), { endpoint_id: endpoint.id, message: 'A test event: if its signature verifies, the endpoint is ready.' });
  await queueDeliveries(db, [{ id: deliveryId, endpointId: endpoint.id, eventType: TEST_EVENT, body, emailNormalized: null }]);
  return deliveryId;
}

export interface DeliveryView {
  id: string;
  eventType: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  finishedAt: Date | null;
}

type DeliveryRow = {
  id: string;
  event_type: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: Date | string | null;
  created_at: Date | string;
  finished_at: Date | string | null;
};

/** The endpoint's latest deliveries, newest first (never their bodies). */
export async function listDeliveries(db: Queryable, scope: Scope, id: string, limit = 50): Promise<DeliveryView[]> {
  await findEndpoint(db, scope, id);
  const rows = await db.query<DeliveryRow>(
    `SELECT id, event_type, status, attempts, last_status, last_error, next_attempt_at, created_at, finished_at
     FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
    [id, limit],
  );
  return rows.map((row) => ({
    id: row.id,
    eventType: row.event_type,
    status: row.status,
    attempts: row.attempts,
    lastStatus: row.last_status,
    lastError: row.last_error,
    nextAttemptAt: row.status === 'pending' ? date(row.next_attempt_at) : null,
    createdAt: new Date(row.created_at),
    finishedAt: date(row.finished_at),
  }));
}

/** Deliveries that ended before the retention period: their outcome was for the owner to read, not to keep. */
export async function purgeFinishedDeliveries(db: Queryable, days: number): Promise<number> {
  const rows = await db.query('DELETE FROM webhook_deliveries WHERE finished_at < now() - make_interval(days => $1::integer) RETURNING id', [days]);
  return rows.length;
}
