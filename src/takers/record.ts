import { createHash, randomBytes } from 'node:crypto';
import { queryOne, type Db, type Queryable } from '../db/client.ts';
import type { TraitEstimate } from '../personality/types.ts';
import { newId } from '../shared/ids.ts';
import { newLinkId } from '../users/users.ts';

export interface AssessmentRecord {
  userId: string;
  hiringLinkId: string | null;
  submissionId: string;
  email: string;
  emailNormalized: string;
  firstName: string | null;
  lastName: string | null;
  questionnaireVersion: string;
  answers: Readonly<Record<string, number>>;
  estimate: TraitEstimate;
}

export interface StoredAssessment {
  /** The result page's id, /r/<id>. */
  id: string;
  /** Shown once, in the link that deletes the result; null when this submission was stored before. */
  deleteKey: string | null;
  /** True when this submission id had been stored already (a second click, a resent form). */
  repeated: boolean;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

interface PersonState extends Record<string, unknown> {
  id: string;
  estimate: TraitEstimate | null;
  model_version: string | null;
  verified: boolean;
}

/**
 * Finds or creates the test taker's row in `people` (by email) and makes its personality the
 * test's: an imported person keeps their row and becomes verified. Locks the row. An existing
 * row's state before the test is returned, so deleting the result can restore it.
 */
async function claimPerson(tx: Queryable, record: AssessmentRecord): Promise<{ person: PersonState; created: boolean }> {
  const existing = await queryOne<PersonState>(tx, 'SELECT id, estimate, model_version, verified FROM people WHERE email_normalized = $1 FOR UPDATE', [record.emailNormalized]);
  if (existing) {
    await tx.query(
      `UPDATE people SET estimate = $2::jsonb, model_version = $3, verified = true, updated_at = now(),
         first_name = COALESCE(first_name, $4), last_name = COALESCE(last_name, $5)
       WHERE id = $1`,
      [existing.id, JSON.stringify(record.estimate), record.estimate.modelVersion, record.firstName, record.lastName],
    );
    return { person: existing, created: false };
  }
  const created = await queryOne<PersonState>(
    tx,
    `INSERT INTO people (id, public_id, email, email_normalized, first_name, last_name, estimate, model_version, verified, source)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, true, 'assessment')
     ON CONFLICT (email_normalized) DO NOTHING RETURNING id, estimate, model_version, verified`,
    [newId('per'), newId('pp', 16), record.email, record.emailNormalized, record.firstName, record.lastName, JSON.stringify(record.estimate), record.estimate.modelVersion],
  );
  if (created) return { person: created, created: true };
  // Someone else's transaction created the row between our read and insert: take theirs.
  return claimPerson(tx, record);
}

/**
 * Stores a completed test. Submitting the same attempt again (same submission id) stores
 * nothing and returns the first result, so a double click or a resent form is harmless.
 */
export async function recordAssessment(db: Db, record: AssessmentRecord): Promise<StoredAssessment> {
  return db.transaction(async (tx) => {
    const seen = await queryOne<{ id: string }>(tx, 'SELECT id FROM assessments WHERE submission_id = $1', [record.submissionId]);
    if (seen) return { id: seen.id, deleteKey: null, repeated: true };
    // A row that existed keeps what it held beside the result, so deleting the result restores it.
    const { person, created: isNew } = await claimPerson(tx, record);
    const id = newLinkId('r');
    const deleteKey = randomBytes(24).toString('base64url');
    const inserted = await tx.query<{ id: string }>(
      `INSERT INTO assessments (id, submission_id, person_id, user_id, hiring_link_id, questionnaire_version, answers, estimate, delete_hash,
         prior_estimate, prior_model_version, prior_verified)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9, $10::jsonb, $11, $12)
       ON CONFLICT (submission_id) DO NOTHING RETURNING id`,
      [
        id,
        record.submissionId,
        person.id,
        record.userId,
        record.hiringLinkId,
        record.questionnaireVersion,
        JSON.stringify(record.answers),
        JSON.stringify(record.estimate),
        hashKey(deleteKey),
        isNew || person.estimate === null ? null : JSON.stringify(person.estimate),
        isNew ? null : person.model_version,
        isNew ? false : person.verified,
      ],
    );
    if (inserted.length === 0) {
      // The same attempt arrived twice at once and the other one won: answer with its result.
      const other = await queryOne<{ id: string }>(tx, 'SELECT id FROM assessments WHERE submission_id = $1', [record.submissionId]);
      if (other) return { id: other.id, deleteKey: null, repeated: true };
    }
    return { id, deleteKey, repeated: false };
  });
}
