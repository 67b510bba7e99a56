import { statement, type Queryable } from '../db/client.ts';
import type { TraitEstimate } from '../personality/types.ts';
import type { SearchInput } from './criteria.ts';

/** A Connect profile request as stored (src/db/migrations/006_connect.sql). */
export type RequestStatus = 'processing' | 'complete' | 'error' | 'not_found';

export interface FoundProfile {
  /** The stored person matched; null when the text sample alone made the profile. */
  personId: string | null;
  firstName: string | null;
  lastName: string | null;
  title: string | null;
  estimate: TraitEstimate;
  hasAssessment: boolean;
}

export type RequestOutcome = { status: 'complete'; profile: FoundProfile } | { status: 'not_found' } | { status: 'error'; error: string };

export interface ProfileRequest {
  id: string;
  status: RequestStatus;
  profile: FoundProfile | null;
  error: string | null;
}

type RequestRow = {
  id: string;
  status: RequestStatus;
  person_id: string | null;
  first_name: string | null;
  last_name: string | null;
  title: string | null;
  estimate: TraitEstimate | string | null;
  has_assessment: boolean;
  error: string | null;
};

function parse<T>(value: T | string | null): T | null {
  return typeof value === 'string' ? (JSON.parse(value) as T) : value;
}

function fromRow(row: RequestRow): ProfileRequest {
  const estimate = parse<TraitEstimate>(row.estimate);
  const profile: FoundProfile | null =
    row.status === 'complete' && estimate
      ? { personId: row.person_id, firstName: row.first_name, lastName: row.last_name, title: row.title, estimate, hasAssessment: row.has_assessment }
      : null;
  return { id: row.id, status: row.status, profile, error: row.error };
}

/** Columns of a finished request, as one JSON record (for jsonb_to_recordset). */
function outcomeRecord(id: string, outcome: RequestOutcome): Record<string, unknown> {
  const profile = outcome.status === 'complete' ? outcome.profile : null;
  return {
    id,
    status: outcome.status,
    person_id: profile?.personId ?? null,
    first_name: profile?.firstName ?? null,
    last_name: profile?.lastName ?? null,
    title: profile?.title ?? null,
    estimate: profile?.estimate ?? null,
    has_assessment: profile?.hasAssessment ?? false,
    error: outcome.status === 'error' ? outcome.error : null,
  };
}

const RECORD = 'r(id text, status text, person_id text, first_name text, last_name text, title text, estimate jsonb, has_assessment boolean, error text)';

/** A request that waits for the background worker; its input is kept until it ends. */
export async function insertPendingRequest(db: Queryable, id: string, tokenId: string, input: SearchInput): Promise<void> {
  await db.query("INSERT INTO profile_requests (id, token_id, status, input) VALUES ($1, $2, 'processing', $3)", [id, tokenId, JSON.stringify(input)]);
}

/** A request the synchronous search answered: stored finished, without its input. */
export interface FinishedRequest {
  id: string;
  tokenId: string;
  outcome: RequestOutcome;
}

const FINISHED_RECORD = 'r(id text, token_id text, status text, person_id text, first_name text, last_name text, title text, estimate jsonb, has_assessment boolean, error text)';

/** Several finished requests in one statement (src/connect/finished-writer.ts batches them). */
const INSERT_FINISHED = statement(
  'profile_requests_insert_finished',
  `INSERT INTO profile_requests (id, token_id, status, person_id, first_name, last_name, title, estimate, has_assessment, error, completed_at)
     SELECT r.id, r.token_id, r.status, r.person_id, r.first_name, r.last_name, r.title, r.estimate, r.has_assessment, r.error, now()
     FROM jsonb_to_recordset($1::jsonb) AS ${FINISHED_RECORD}`,
);

export async function insertFinishedRequests(db: Queryable, requests: readonly FinishedRequest[]): Promise<void> {
  if (requests.length === 0) return;
  const records = requests.map(({ id, tokenId, outcome }) => ({ ...outcomeRecord(id, outcome), token_id: tokenId }));
  await db.run(INSERT_FINISHED, [JSON.stringify(records)]);
}

/** Only the token that asked may read a request; anyone else sees nothing. */
const FIND = statement(
  'profile_requests_find',
  'SELECT id, status, person_id, first_name, last_name, title, estimate, has_assessment, error FROM profile_requests WHERE id = $1 AND token_id = $2',
);

export async function findRequest(db: Queryable, id: string, tokenId: string): Promise<ProfileRequest | null> {
  const [row] = await db.run<RequestRow>(FIND, [id, tokenId]);
  return row ? fromRow(row) : null;
}

/** The inputs of unfinished requests among `ids` (finished ones, or unknown ids, are left out). */
export async function pendingInputs(db: Queryable, ids: readonly string[]): Promise<Map<string, unknown>> {
  const rows = await db.query<{ id: string; input: unknown }>(
    "SELECT id, input FROM profile_requests WHERE id = ANY($1::text[]) AND status = 'processing' AND input IS NOT NULL",
    [[...ids]],
  );
  return new Map(rows.map((row) => [row.id, typeof row.input === 'string' ? (JSON.parse(row.input) as unknown) : row.input]));
}

/** A request this call finished: whose it is and how it ended (for the webhook it sends). */
export interface FinishedNow {
  id: string;
  tokenId: string;
  status: Exclude<RequestStatus, 'processing'>;
}

/**
 * Records many outcomes in one statement and drops their inputs; finished requests are not
 * touched again. Returns the requests this call finished (not those finished before).
 */
export async function finishRequests(db: Queryable, outcomes: ReadonlyArray<{ id: string; outcome: RequestOutcome }>): Promise<FinishedNow[]> {
  if (outcomes.length === 0) return [];
  const rows = await db.query<{ id: string; token_id: string; status: FinishedNow['status'] }>(
    `UPDATE profile_requests AS p SET status = r.status, person_id = r.person_id, first_name = r.first_name, last_name = r.last_name,
       title = r.title, estimate = r.estimate, has_assessment = r.has_assessment, error = r.error, input = NULL, completed_at = now()
     FROM jsonb_to_recordset($1::jsonb) AS ${RECORD}
     WHERE p.id = r.id AND p.status = 'processing'
     RETURNING p.id, p.token_id, p.status`,
    [JSON.stringify(outcomes.map(({ id, outcome }) => outcomeRecord(id, outcome)))],
  );
  return rows.map((row) => ({ id: row.id, tokenId: row.token_id, status: row.status }));
}

/**
 * Deletes requests older than `days`: finished ones, and unfinished ones too (by then their
 * job has long been given up). Returns how many went.
 */
export async function purgeRequests(db: Queryable, days: number): Promise<number> {
  const rows = await db.query(
    'DELETE FROM profile_requests WHERE created_at < now() - make_interval(days => $1::integer) RETURNING id',
    [days],
  );
  return rows.length;
}
