import { createHash } from 'node:crypto';
import type { Queryable } from '../db/client.ts';
import type { TraitEstimate } from '../personality/types.ts';
import { newId } from '../shared/ids.ts';
import type { PersonInput, PersonSource, TextSample } from './person.ts';

/**
 * Writes many people in a few statements (the import's hot path; upsertPerson is a batch of one).
 *
 * Matching: a row belongs to the stored person with its normalised email or its LinkedIn key.
 * - Neither known: a new person.
 * - Both known but on two different people: the row is skipped, never merged — joining two
 *   people on a guess would show one person's personality under another's name.
 * - Otherwise the matched person is updated: each field the row gives replaces the stored one
 *   (an identifier too: people change address), a field it leaves empty keeps the stored value.
 * - A row that would change no stored value is "unchanged" and writes nothing, so importing a
 *   file again (even one naming a person twice) is a no-op.
 * New texts are analysed; texts equal to the stored ones are not (their hash is compared), nor
 * are those of verified people, whose personality comes from the assessment.
 */

/** Serialises batch writers (two imports at once) so the matching reads stay true until commit. */
const PEOPLE_WRITE_LOCK = 727_274_003;

export type Analyze = (texts: TextSample[]) => { estimate: TraitEstimate | null; modelVersion: string };

export type RowOutcome =
  | { kind: 'inserted' | 'updated' | 'unchanged'; personId: string; hasPersonality: boolean }
  | { kind: 'skipped'; reason: string };

export interface UpsertOptions {
  source: PersonSource;
  analyze: Analyze;
  /** textsHash, or the same hash computed already (the import's analysis threads compute it with the estimate). */
  hash?: (texts: readonly TextSample[]) => string;
}

/** PersonInput property → column, for the fields an update may replace. */
const SCALARS = [
  ['email', 'email'],
  ['emailNormalized', 'email_normalized'],
  ['linkedinUrl', 'linkedin_url'],
  ['linkedinKey', 'linkedin_key'],
  ['firstName', 'first_name'],
  ['lastName', 'last_name'],
  ['photoUrl', 'photo_url'],
  ['companyName', 'company_name'],
  ['title', 'title'],
  ['location', 'location'],
] as const;
type Column = (typeof SCALARS)[number][1];

interface Known {
  id: string;
  values: Record<Column, string | null>;
  textsHash: string | null;
  verified: boolean;
  hasPersonality: boolean;
}

/**
 * Another spelling of the stored email or profile URL is the same identifier: the stored
 * spelling stays, so two rows that spell one person differently do not flip it back and forth.
 */
function sameIdentifier(input: PersonInput, known: Known, column: Column): boolean {
  if (column === 'email') return input.emailNormalized === known.values.email_normalized;
  if (column === 'linkedin_url') return input.linkedinKey === known.values.linkedin_key;
  return false;
}

export function textsHash(texts: readonly TextSample[]): string {
  return createHash('sha256')
    .update(JSON.stringify(texts.map((t) => [t.type, t.text])))
    .digest('base64url');
}

const COLUMNS = `id text, public_id text, email text, email_normalized text, linkedin_url text, linkedin_key text,
  first_name text, last_name text, photo_url text, company_name text, title text, location text,
  texts jsonb, has_texts boolean, estimate jsonb, set_estimate boolean, model_version text, texts_hash text`;

const INSERT_SQL = `INSERT INTO people (id, public_id, email, email_normalized, linkedin_url, linkedin_key, first_name, last_name,
  photo_url, company_name, title, location, texts, estimate, model_version, source, texts_hash)
  SELECT r.id, r.public_id, r.email, r.email_normalized, r.linkedin_url, r.linkedin_key, r.first_name, r.last_name,
  r.photo_url, r.company_name, r.title, r.location, r.texts, r.estimate, r.model_version, $2, r.texts_hash
  FROM jsonb_to_recordset($1::jsonb) AS r(${COLUMNS})`;

const UPDATE_SQL = `UPDATE people AS p SET
  email = coalesce(r.email, p.email), email_normalized = coalesce(r.email_normalized, p.email_normalized),
  linkedin_url = coalesce(r.linkedin_url, p.linkedin_url), linkedin_key = coalesce(r.linkedin_key, p.linkedin_key),
  first_name = coalesce(r.first_name, p.first_name), last_name = coalesce(r.last_name, p.last_name),
  photo_url = coalesce(r.photo_url, p.photo_url), company_name = coalesce(r.company_name, p.company_name),
  title = coalesce(r.title, p.title), location = coalesce(r.location, p.location),
  texts = CASE WHEN r.has_texts THEN r.texts ELSE p.texts END,
  estimate = CASE WHEN r.set_estimate THEN r.estimate ELSE p.estimate END,
  model_version = CASE WHEN r.set_estimate THEN r.model_version ELSE p.model_version END,
  texts_hash = CASE WHEN r.has_texts THEN r.texts_hash ELSE p.texts_hash END, updated_at = now()
  FROM jsonb_to_recordset($1::jsonb) AS r(${COLUMNS}) WHERE p.id = r.id`;

type Pending = Record<string, unknown>;

function pendingRow(id: string, publicId: string, input: PersonInput, texts: { hash: string } | null, analysed: ReturnType<Analyze> | null): Pending {
  return {
    id,
    public_id: publicId,
    email: input.email,
    email_normalized: input.emailNormalized,
    linkedin_url: input.linkedinUrl,
    linkedin_key: input.linkedinKey,
    first_name: input.firstName,
    last_name: input.lastName,
    photo_url: input.photoUrl,
    company_name: input.companyName,
    title: input.title,
    location: input.location,
    texts: input.texts,
    has_texts: texts !== null,
    texts_hash: texts?.hash ?? null,
    estimate: analysed?.estimate ?? null,
    set_estimate: analysed !== null,
    model_version: analysed?.modelVersion ?? null,
  };
}

type FoundRow = Record<Column, string | null> & { id: string; texts_hash: string | null; verified: boolean; has_personality: boolean };

export async function upsertBatch(tx: Queryable, inputs: readonly PersonInput[], options: UpsertOptions): Promise<RowOutcome[]> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [PEOPLE_WRITE_LOCK]);
  const emails = inputs.flatMap((i) => (i.emailNormalized ? [i.emailNormalized] : []));
  const keys = inputs.flatMap((i) => (i.linkedinKey ? [i.linkedinKey] : []));
  const found = await tx.query<FoundRow>(
    `SELECT id, ${SCALARS.map(([, column]) => column).join(', ')}, texts_hash, verified, estimate IS NOT NULL AS has_personality
     FROM people WHERE email_normalized = ANY($1::text[]) OR linkedin_key = ANY($2::text[])`,
    [emails, keys],
  );
  const byEmail = new Map<string, Known>();
  const byKey = new Map<string, Known>();
  for (const row of found) {
    const values = Object.fromEntries(SCALARS.map(([, column]) => [column, row[column]])) as Record<Column, string | null>;
    const known: Known = { id: row.id, values, textsHash: row.texts_hash, verified: row.verified, hasPersonality: row.has_personality };
    if (values.email_normalized) byEmail.set(values.email_normalized, known);
    if (values.linkedin_key) byKey.set(values.linkedin_key, known);
  }

  let inserts: Pending[] = [];
  let updates: Pending[] = [];
  // Identifiers given up by a pending update, and people with a pending write: a later row that
  // claims one of these must wait until the pending rows are written, or a unique index (or
  // "cannot affect a row twice") fails the statement.
  const freed = new Set<string>();
  const touched = new Set<string>();
  const flush = async () => {
    if (updates.length > 0) await tx.query(UPDATE_SQL, [JSON.stringify(updates)]);
    if (inserts.length > 0) await tx.query(INSERT_SQL, [JSON.stringify(inserts), options.source]);
    inserts = [];
    updates = [];
    freed.clear();
    touched.clear();
  };
  const claimsFreed = (input: PersonInput) =>
    (input.emailNormalized !== null && freed.has(`email_normalized:${input.emailNormalized}`)) ||
    (input.linkedinKey !== null && freed.has(`linkedin_key:${input.linkedinKey}`));
  /** Moves an identifier of `known` to `value` in the lookup maps, remembering the one given up. */
  const claim = (known: Known, column: 'email_normalized' | 'linkedin_key', value: string) => {
    const map = column === 'email_normalized' ? byEmail : byKey;
    const old = known.values[column];
    if (old) {
      map.delete(old);
      freed.add(`${column}:${old}`);
    }
    map.set(value, known);
  };

  const outcomes: RowOutcome[] = [];
  for (const input of inputs) {
    const byE = input.emailNormalized ? byEmail.get(input.emailNormalized) : undefined;
    const byK = input.linkedinKey ? byKey.get(input.linkedinKey) : undefined;
    if (byE && byK && byE !== byK) {
      outcomes.push({ kind: 'skipped', reason: 'email matches one stored person and linkedin_url another; not merged' });
      continue;
    }
    const target = byE ?? byK;
    const texts = input.texts.length > 0 || !target ? { hash: (options.hash ?? textsHash)(input.texts) } : null;
    if (target) {
      const changed = SCALARS.filter(([property, column]) => input[property] !== null && input[property] !== target.values[column] && !sameIdentifier(input, target, column));
      const textsChanged = texts !== null && texts.hash !== target.textsHash;
      if (changed.length === 0 && !textsChanged) {
        outcomes.push({ kind: 'unchanged', personId: target.id, hasPersonality: target.hasPersonality });
        continue;
      }
      if (touched.has(target.id) || claimsFreed(input)) await flush();
      for (const [property, column] of changed) {
        const value = input[property];
        if (value !== null && (column === 'email_normalized' || column === 'linkedin_key')) claim(target, column, value);
        target.values[column] = value;
      }
      const analysed = textsChanged && !target.verified ? options.analyze(input.texts) : null;
      if (textsChanged) target.textsHash = texts.hash;
      if (analysed) target.hasPersonality = analysed.estimate !== null;
      touched.add(target.id);
      const patch: PersonInput = { ...input };
      for (const [property] of SCALARS) if (!changed.some(([p]) => p === property)) patch[property] = null;
      updates.push(pendingRow(target.id, '', patch, textsChanged ? texts : null, analysed));
      outcomes.push({ kind: 'updated', personId: target.id, hasPersonality: target.hasPersonality });
      continue;
    }

    if (claimsFreed(input)) await flush();
    const analysed = options.analyze(input.texts);
    const values = Object.fromEntries(SCALARS.map(([property, column]) => [column, input[property]])) as Record<Column, string | null>;
    const known: Known = { id: newId('per'), values, textsHash: texts?.hash ?? null, verified: false, hasPersonality: analysed.estimate !== null };
    if (values.email_normalized) byEmail.set(values.email_normalized, known);
    if (values.linkedin_key) byKey.set(values.linkedin_key, known);
    touched.add(known.id);
    inserts.push(pendingRow(known.id, newId('pp', 16), input, texts, analysed));
    outcomes.push({ kind: 'inserted', personId: known.id, hasPersonality: known.hasPersonality });
  }
  await flush();
  return outcomes;
}
