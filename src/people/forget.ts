/**
 * The right to be forgotten: everything stored about one person, exported as JSON or erased,
 * wherever it lives. Each table that holds person data contributes one part below; export and
 * erase walk the parts in one transaction, so a person is never half deleted.
 *
 * Adding a table that references a person (see src/people/README.md): write a
 * `PersonDataPart` beside the table's own repository and add it to PERSON_DATA_PARTS, before
 * `personRow` (rows that reference `people` go before the row they reference).
 */
import type { Db, Queryable } from '../db/client.ts';
import { AppError } from '../shared/errors.ts';
import { emitWebhookEvents, resultDeleted } from '../webhooks/events.ts';
import { linkedinKey } from './normalize.ts';
import { findPersonSummary, type PersonKey } from './repository.ts';

export interface PersonDataPart {
  /** The key of this part in the export and in the erase counts (snake_case, stable). */
  readonly name: string;
  /** What this part stores about the person, as JSON-ready rows (every column, as stored). */
  export(tx: Queryable, personId: string): Promise<unknown>;
  /** Removes what this part stores about the person; the number of rows removed or cleared. */
  erase(tx: Queryable, personId: string): Promise<number>;
}

/**
 * The person's own row: identity, profile URL, texts, estimate and model version. Every column
 * is exported as it is stored, so a column a later migration adds is in the export too.
 */
const personRow: PersonDataPart = {
  name: 'person',
  async export(tx, personId) {
    const rows = await tx.query('SELECT * FROM people WHERE id = $1', [personId]);
    return rows[0] ?? null;
  },
  async erase(tx, personId) {
    const rows = await tx.query('DELETE FROM people WHERE id = $1 RETURNING id', [personId]);
    return rows.length;
  },
};

/** Connect searches that matched the person: their names and the profile they were given. */
const connectRequests: PersonDataPart = {
  name: 'connect_profile_requests',
  export: (tx, personId) => tx.query('SELECT * FROM profile_requests WHERE person_id = $1 ORDER BY created_at', [personId]),
  erase: async (tx, personId) => (await tx.query('DELETE FROM profile_requests WHERE person_id = $1 RETURNING id', [personId])).length,
};

/** The person's address, for rows that name them by it rather than by their row. */
const ADDRESS = '(SELECT email_normalized FROM people WHERE id = $1)';

/**
 * Personality tests taken with the person's address: answers, results and the hiring link they
 * came through; confirmed ones (their profile) and unconfirmed ones (only their user's) alike.
 */
const assessments: PersonDataPart = {
  name: 'assessments',
  export: (tx, personId) => tx.query(`SELECT * FROM assessments WHERE person_id = $1 OR email_normalized = ${ADDRESS} ORDER BY created_at`, [personId]),
  async erase(tx, personId) {
    const rows = await tx.query<{ id: string; user_id: string; email: string; email_normalized: string }>(
      `DELETE FROM assessments WHERE person_id = $1 OR email_normalized = ${ADDRESS} RETURNING id, user_id, email, email_normalized`,
      [personId],
    );
    // Each result's user is told it is gone (GDPR art. 19: erasure is passed on to whoever the data went to).
    await emitWebhookEvents(tx, rows.map((row) => resultDeleted({ id: row.id, userId: row.user_id, email: row.email, emailNormalized: row.email_normalized })));
    return rows.length;
  },
};

/**
 * Webhooks not yet delivered that name the person (a completed test, to its user's endpoint):
 * erased before `assessments`, whose erase then queues the one that says their results are gone.
 */
const webhookDeliveries: PersonDataPart = {
  name: 'webhook_deliveries',
  export: (tx, personId) =>
    tx.query(`SELECT id, endpoint_id, event_type, body, status, created_at FROM webhook_deliveries WHERE email_normalized = ${ADDRESS} ORDER BY created_at`, [personId]),
  erase: async (tx, personId) => (await tx.query(`DELETE FROM webhook_deliveries WHERE email_normalized = ${ADDRESS} RETURNING id`, [personId])).length,
};

/** Links mailed to the person's address and not used yet (a result to confirm, a sign-up to finish). */
const confirmations: PersonDataPart = {
  name: 'email_confirmations',
  // The secret's hash and a sign-up's password hash are credentials, not data about the person.
  export: (tx, personId) =>
    tx.query(`SELECT purpose, subject_id, email, email_normalized, expires_at, created_at FROM email_confirmations WHERE email_normalized = ${ADDRESS} ORDER BY created_at`, [personId]),
  erase: async (tx, personId) => (await tx.query(`DELETE FROM email_confirmations WHERE email_normalized = ${ADDRESS} RETURNING token_hash`, [personId])).length,
};

/**
 * Every part, in erase order: rows that name a person before the person's own row. Analyses
 * belong to the API token that asked for them (the text sent is not linked to anyone stored),
 * and jobs name analyses or requests, not people. One line per new table goes above `personRow`.
 */
export const PERSON_DATA_PARTS: readonly PersonDataPart[] = [connectRequests, webhookDeliveries, assessments, confirmations, personRow];

/** How the operator names the person: exactly one of the two, matched like the lookups are. */
export type ForgetKey = { email: string } | { linkedinUrl: string };

function describeKey(key: ForgetKey): string {
  return 'email' in key ? 'this email' : 'this profile URL';
}

/** The person's id, or a not_found AppError that does not repeat the email or URL (it may reach a log). */
async function personIdFor(tx: Queryable, key: ForgetKey): Promise<string> {
  if ('linkedinUrl' in key && linkedinKey(key.linkedinUrl) === null) {
    throw new AppError('bad_request', 'The profile URL given is not a LinkedIn profile URL (like https://www.linkedin.com/in/name), so it names nobody.');
  }
  const person = await findPersonSummary(tx, key satisfies PersonKey);
  if (!person) throw new AppError('not_found', `No person is stored under ${describeKey(key)} (it is matched like GET /v1/profiles matches it).`);
  return person.id;
}

export interface PersonExport {
  exportedAt: string;
  /** One entry per part, by its name. */
  data: Record<string, unknown>;
}

/** Everything stored about the person, part by part. */
export async function exportPerson(db: Db, key: ForgetKey): Promise<PersonExport> {
  return db.transaction(async (tx) => {
    const personId = await personIdFor(tx, key);
    const data: Record<string, unknown> = {};
    for (const part of PERSON_DATA_PARTS) data[part.name] = await part.export(tx, personId);
    return { exportedAt: new Date().toISOString(), data };
  });
}

export interface ForgetSummary {
  /** Rows removed (or cleared) per part, by its name. */
  removed: Record<string, number>;
  rowsRemoved: number;
}

/** Erases the person from every part in one transaction: all of it goes, or none of it. */
export async function forgetPerson(db: Db, key: ForgetKey): Promise<ForgetSummary> {
  return db.transaction(async (tx) => {
    const personId = await personIdFor(tx, key);
    const removed: Record<string, number> = {};
    let total = 0;
    for (const part of PERSON_DATA_PARTS) {
      const count = await part.erase(tx, personId);
      removed[part.name] = count;
      total += count;
    }
    return { removed, rowsRemoved: total };
  });
}
