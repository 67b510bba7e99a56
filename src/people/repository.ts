import { queryOne, statement, type Db, type Queryable, type Statement } from '../db/client.ts';
import type { TraitEstimate } from '../personality/types.ts';
import { linkedinKey, normalizeEmail, normalizeProfileUrl, normalizeWebUrl } from './normalize.ts';
import type { Person, PersonInput, TextSample } from './person.ts';
import { upsertBatch, type RowOutcome, type UpsertOptions } from './upsert.ts';

export type { Person } from './person.ts';

interface PersonRow {
  [column: string]: unknown;
  id: string;
  public_id: string;
  email: string | null;
  email_normalized: string | null;
  linkedin_url: string | null;
  linkedin_key: string | null;
  first_name: string | null;
  last_name: string | null;
  photo_url: string | null;
  company_name: string | null;
  title: string | null;
  location: string | null;
  texts: TextSample[];
  estimate: TraitEstimate | null;
  model_version: string | null;
  verified: boolean;
  source: string;
  created_at: Date;
  updated_at: Date;
}

const PERSON_COLUMNS = `id, public_id, email, email_normalized, linkedin_url, linkedin_key, first_name, last_name, photo_url,
  company_name, title, location, texts, estimate, model_version, verified, source, created_at, updated_at`;

/**
 * Everything but the texts: what showing a profile needs. The texts are the bulk of a row, and
 * parsing them for every lookup would cost more than the lookup itself.
 */
export type PersonSummary = Omit<Person, 'texts'>;

const SUMMARY_COLUMNS = PERSON_COLUMNS.replace('texts, ', '');

function toSummary(row: PersonRow): PersonSummary {
  return {
    id: row.id,
    publicId: row.public_id,
    email: row.email,
    emailNormalized: row.email_normalized,
    linkedinUrl: normalizeProfileUrl(row.linkedin_url),
    linkedinKey: row.linkedin_key,
    firstName: row.first_name,
    lastName: row.last_name,
    // Normalised on the way out too: a value stored before the import normalised URLs must
    // not make every response that carries it fail its URI check.
    photoUrl: normalizeWebUrl(row.photo_url),
    companyName: row.company_name,
    title: row.title,
    location: row.location,
    estimate: row.estimate,
    modelVersion: row.model_version,
    verified: row.verified,
    source: row.source,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toPerson(row: PersonRow): Person {
  return { ...toSummary(row), texts: row.texts };
}

type LookupColumn = 'id' | 'email_normalized' | 'linkedin_key' | 'public_id';

/** How a caller names a person; emails and URLs are normalised so any spelling matches. */
export type PersonKey = { id: string } | { email: string } | { linkedinUrl: string } | { publicId: string };

function columnFor(key: PersonKey): [LookupColumn, string] | null {
  if ('id' in key) return ['id', key.id];
  if ('publicId' in key) return ['public_id', key.publicId];
  if ('email' in key) {
    const normalized = normalizeEmail(key.email);
    return normalized ? ['email_normalized', normalized] : null;
  }
  const normalized = linkedinKey(key.linkedinUrl);
  return normalized ? ['linkedin_key', normalized] : null;
}

type ColumnSet = 'full' | 'summary';

function lookupsBy(column: LookupColumn): Record<ColumnSet, Statement> {
  return {
    full: statement(`people_by_${column}_full`, `SELECT ${PERSON_COLUMNS} FROM people WHERE ${column} = $1`),
    summary: statement(`people_by_${column}_summary`, `SELECT ${SUMMARY_COLUMNS} FROM people WHERE ${column} = $1`),
  };
}

/** Every lookup is a prepared statement: profile lookups are the service's hottest query. */
const LOOKUPS: Record<LookupColumn, Record<ColumnSet, Statement>> = {
  id: lookupsBy('id'),
  email_normalized: lookupsBy('email_normalized'),
  linkedin_key: lookupsBy('linkedin_key'),
  public_id: lookupsBy('public_id'),
};

async function findRow(db: Queryable, key: PersonKey, set: ColumnSet): Promise<PersonRow | undefined> {
  const lookup = columnFor(key);
  if (!lookup) return undefined;
  const rows = await db.run<PersonRow>(LOOKUPS[lookup[0]][set], [lookup[1]]);
  return rows[0];
}

/** Everything about a person, texts included (import, recompute). */
export async function findPerson(db: Queryable, key: PersonKey): Promise<Person | null> {
  const row = await findRow(db, key, 'full');
  return row ? toPerson(row) : null;
}

/** What showing a profile needs: the person without their texts. */
export async function findPersonSummary(db: Queryable, key: PersonKey): Promise<PersonSummary | null> {
  const row = await findRow(db, key, 'summary');
  return row ? toSummary(row) : null;
}

/** The columns people are looked up by many at a time (src/people/lookups.ts); each is UNIQUE. */
export type BatchColumn = Exclude<LookupColumn, 'id'>;

/** The column and normalised value a lookup by email, URL or public id reads; null where it cannot name anyone. */
export function batchKeyOf(key: Exclude<PersonKey, { id: string }>): [BatchColumn, string] | null {
  const lookup = columnFor(key);
  return lookup && lookup[0] !== 'id' ? [lookup[0], lookup[1]] : null;
}

const batchLookupBy = (column: BatchColumn): Statement =>
  statement(`people_by_${column}_batch`, `SELECT ${SUMMARY_COLUMNS} FROM people WHERE ${column} = ANY($1::text[])`);

const BATCH_LOOKUPS: Record<BatchColumn, Statement> = {
  email_normalized: batchLookupBy('email_normalized'),
  linkedin_key: batchLookupBy('linkedin_key'),
  public_id: batchLookupBy('public_id'),
};

/** Many people by one column in one statement, keyed by that column's value (normalised keys, see batchKeyOf). */
export async function findPersonSummaries(db: Queryable, column: BatchColumn, keys: readonly string[]): Promise<Map<string, PersonSummary>> {
  const rows = await db.run<PersonRow>(BATCH_LOOKUPS[column], [[...keys]]);
  return new Map(rows.flatMap((row) => (typeof row[column] === 'string' ? [[row[column], toSummary(row)] as const] : [])));
}

export const findPersonById = (db: Queryable, id: string) => findPerson(db, { id });
/** Any spelling of the address finds the person; an invalid address finds no one. */
export const findPersonByEmail = (db: Queryable, email: string) => findPerson(db, { email });
/** Any spelling of the profile URL finds the person (see linkedinKey). */
export const findPersonByLinkedinUrl = (db: Queryable, linkedinUrl: string) => findPerson(db, { linkedinUrl });
export const findPersonByPublicId = (db: Queryable, publicId: string) => findPerson(db, { publicId });

export async function countPeople(db: Queryable): Promise<number> {
  const row = await queryOne<{ n: number }>(db, 'SELECT count(*) AS n FROM people');
  return row?.n ?? 0;
}

export interface UpsertResult {
  outcome: RowOutcome;
  person: Person | null;
}

/** One person, by the import's rules (src/people/upsert.ts): a skipped row returns person null. */
export async function upsertPerson(db: Db, input: PersonInput, options: UpsertOptions): Promise<UpsertResult> {
  return db.transaction(async (tx) => {
    const [outcome] = await upsertBatch(tx, [input], options);
    if (!outcome) throw new Error('upsertBatch returned no outcome');
    const person = outcome.kind === 'skipped' ? null : await findPersonById(tx, outcome.personId);
    return { outcome, person };
  });
}

export interface RecomputeCandidate {
  id: string;
  texts: TextSample[];
}

/**
 * The next page (by id, after `afterId`) of people whose personality the text model should
 * compute again: those analysed by another model version than `modelVersion`, or everyone with
 * `all`. Verified people are left alone: their personality comes from the test.
 */
export async function listPeopleForRecompute(db: Queryable, afterId: string, limit: number, options: { modelVersion: string; all?: boolean }): Promise<RecomputeCandidate[]> {
  return db.query<{ id: string; texts: TextSample[] }>(
    `SELECT id, texts FROM people
     WHERE id > $1 AND NOT verified AND ($3::boolean OR model_version IS DISTINCT FROM $4)
     ORDER BY id LIMIT $2`,
    [afterId, limit, options.all === true, options.modelVersion],
  );
}

/** How many people listPeopleForRecompute would return over all pages. */
export async function countPeopleForRecompute(db: Queryable, options: { modelVersion: string; all?: boolean }): Promise<number> {
  const row = await queryOne<{ n: number }>(db, 'SELECT count(*) AS n FROM people WHERE NOT verified AND ($1::boolean OR model_version IS DISTINCT FROM $2)', [
    options.all === true,
    options.modelVersion,
  ]);
  return row?.n ?? 0;
}

export interface EstimateUpdate {
  id: string;
  estimate: TraitEstimate | null;
  modelVersion: string;
}

/** Stores new estimates for many people in one statement. */
export async function updateEstimates(db: Queryable, updates: readonly EstimateUpdate[]): Promise<void> {
  if (updates.length === 0) return;
  await db.query(
    `UPDATE people AS p SET estimate = r.estimate, model_version = r.model_version, updated_at = now()
     FROM jsonb_to_recordset($1::jsonb) AS r(id text, estimate jsonb, model_version text) WHERE p.id = r.id`,
    [JSON.stringify(updates.map((u) => ({ id: u.id, estimate: u.estimate, model_version: u.modelVersion })))],
  );
}

export function updateEstimate(db: Queryable, id: string, estimate: TraitEstimate | null, modelVersion: string): Promise<void> {
  return updateEstimates(db, [{ id, estimate, modelVersion }]);
}
