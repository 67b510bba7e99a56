import { queryOne, type Db, type Queryable } from '../db/client.ts';
import { dropConfirmationsOf } from '../confirmations/tokens.ts';
import type { TraitEstimate } from '../personality/types.ts';
import { AppError } from '../shared/errors.ts';
import { emitWebhookEvents, resultDeleted } from '../webhooks/events.ts';
import { hashKey } from './record.ts';

interface DeletedRow extends Record<string, unknown> {
  user_id: string;
  email: string;
  email_normalized: string;
  person_id: string | null;
  prior_estimate: TraitEstimate | null;
  prior_model_version: string | null;
  prior_verified: boolean;
}

/**
 * Deletes a test result by its result id and the key from its delete link, with its
 * confirmation link. An unconfirmed result was nobody's profile, so nothing else changes. A
 * confirmed one's person falls back to their newest other confirmed result, or to what they
 * held before the test, or, when the test alone created them, is removed.
 */
export async function deleteAssessment(db: Db, resultId: string, key: string): Promise<void> {
  await db.transaction(async (tx) => {
    const deleted = await queryOne<DeletedRow>(
      tx,
      `DELETE FROM assessments WHERE id = $1 AND delete_hash = $2 RETURNING ${DELETED}`,
      [resultId, hashKey(key)],
    );
    if (!deleted) throw new AppError('not_found', 'This result does not exist, was deleted already, or the delete link is not complete.');
    await afterDelete(tx, resultId, deleted);
  });
}

const DELETED = 'user_id, email, email_normalized, person_id, prior_estimate, prior_model_version, prior_verified';

/**
 * What a deleted result leaves behind: its confirmation link goes, its user is told (a webhook),
 * and a person it had become falls back.
 */
async function afterDelete(tx: Queryable, resultId: string, deleted: DeletedRow): Promise<void> {
  await dropConfirmationsOf(tx, resultId);
  await emitWebhookEvents(tx, [resultDeleted({ id: resultId, userId: deleted.user_id, email: deleted.email, emailNormalized: deleted.email_normalized })]);
  if (deleted.person_id === null) return;
  const person = await queryOne<{ source: string }>(tx, 'SELECT source FROM people WHERE id = $1 FOR UPDATE', [deleted.person_id]);
  if (!person) return;
  const latest = await queryOne<{ estimate: TraitEstimate }>(
    tx,
    'SELECT estimate FROM assessments WHERE person_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1',
    [deleted.person_id],
  );
  if (latest) {
    await tx.query('UPDATE people SET estimate = $2::jsonb, model_version = $3, updated_at = now() WHERE id = $1', [
      deleted.person_id,
      JSON.stringify(latest.estimate),
      latest.estimate.modelVersion,
    ]);
  } else if (person.source === 'assessment') {
    await tx.query('DELETE FROM people WHERE id = $1', [deleted.person_id]);
  } else {
    await tx.query('UPDATE people SET estimate = $2::jsonb, model_version = $3, verified = $4, updated_at = now() WHERE id = $1', [
      deleted.person_id,
      deleted.prior_estimate === null ? null : JSON.stringify(deleted.prior_estimate),
      deleted.prior_model_version,
      deleted.prior_verified,
    ]);
  }
}

/**
 * Removes a taker from a user's dashboard: every result the address sent through this user's
 * links is deleted, as if its taker had deleted it (a profile it had become falls back the same
 * way). Other users' results for the address are not touched. Returns how many went.
 */
export async function removeTaker(db: Db, userId: string, emailNormalized: string): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx.query<DeletedRow & { id: string }>(
      `DELETE FROM assessments WHERE user_id = $1 AND email_normalized = $2 RETURNING id, ${DELETED}`,
      [userId, emailNormalized],
    );
    // Oldest first is not needed: each fallback reads what is left once every row is gone.
    for (const row of rows) await afterDelete(tx, row.id, row);
    return rows.length;
  });
}

/** True when the key opens this result's delete link. */
export async function deleteKeyMatches(db: Db, resultId: string, key: string): Promise<boolean> {
  const row = await queryOne<{ id: string }>(db, 'SELECT id FROM assessments WHERE id = $1 AND delete_hash = $2', [resultId, hashKey(key)]);
  return row !== undefined;
}
