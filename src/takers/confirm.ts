import { queryOne, type Queryable } from '../db/client.ts';
import type { TraitEstimate } from '../personality/types.ts';
import { AppError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';

interface ResultRow extends Record<string, unknown> {
  id: string;
  person_id: string | null;
  email: string;
  email_normalized: string;
  first_name: string | null;
  last_name: string | null;
  estimate: TraitEstimate;
}

interface PersonState extends Record<string, unknown> {
  id: string;
  public_id: string;
  estimate: TraitEstimate | null;
  model_version: string | null;
  verified: boolean;
}

const PERSON_STATE = 'id, public_id, estimate, model_version, verified';

/** The stored person with this address, locked; created from the result when there is none. */
async function personFor(tx: Queryable, result: ResultRow): Promise<{ person: PersonState; created: boolean }> {
  const existing = await queryOne<PersonState>(tx, `SELECT ${PERSON_STATE} FROM people WHERE email_normalized = $1 FOR UPDATE`, [result.email_normalized]);
  if (existing) return { person: existing, created: false };
  const created = await queryOne<PersonState>(
    tx,
    `INSERT INTO people (id, public_id, email, email_normalized, first_name, last_name, estimate, model_version, verified, source)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, true, 'assessment')
     ON CONFLICT (email_normalized) DO NOTHING RETURNING ${PERSON_STATE}`,
    [newId('per'), newId('pp', 16), result.email, result.email_normalized, result.first_name, result.last_name, JSON.stringify(result.estimate), result.estimate.modelVersion],
  );
  if (created) return { person: created, created: true };
  // Someone else's transaction created the row between our read and insert: take theirs.
  return personFor(tx, result);
}

/**
 * Called when the taker follows the link mailed to the address: the result becomes the stored
 * person's (an imported person keeps their row, names and photo), and the person's profile is
 * their newest confirmed result, by when it was taken. So a result is replaced only by a newer
 * confirmed one: confirming an older result later changes nothing, and unconfirmed results
 * never count. What the person held before their first confirmed result is kept on the result,
 * so deleting their last one puts it back. Returns the person's page id.
 */
export async function confirmResult(tx: Queryable, resultId: string): Promise<{ publicId: string }> {
  const result = await queryOne<ResultRow>(
    tx,
    'SELECT id, person_id, email, email_normalized, first_name, last_name, estimate FROM assessments WHERE id = $1 FOR UPDATE',
    [resultId],
  );
  if (!result) throw new AppError('not_found', 'This result was deleted, so there is nothing to confirm.');
  const { person, created } = await personFor(tx, result);
  if (result.person_id === person.id) return { publicId: person.public_id };
  // Every confirmed result of a person carries the state from before the first one.
  const prior = person.verified
    ? await queryOne<{ prior_estimate: TraitEstimate | null; prior_model_version: string | null; prior_verified: boolean }>(
      tx,
      'SELECT prior_estimate, prior_model_version, prior_verified FROM assessments WHERE person_id = $1 ORDER BY created_at, id LIMIT 1',
      [person.id],
    )
    : undefined;
  const priorState = created
    ? { estimate: null, modelVersion: null, verified: false }
    : prior
      ? { estimate: prior.prior_estimate, modelVersion: prior.prior_model_version, verified: prior.prior_verified }
      : { estimate: person.estimate, modelVersion: person.model_version, verified: person.verified };
  await tx.query(
    'UPDATE assessments SET person_id = $2, confirmed_at = now(), prior_estimate = $3::jsonb, prior_model_version = $4, prior_verified = $5 WHERE id = $1',
    [result.id, person.id, priorState.estimate === null ? null : JSON.stringify(priorState.estimate), priorState.modelVersion, priorState.verified],
  );
  const newest = await queryOne<{ estimate: TraitEstimate }>(
    tx,
    'SELECT estimate FROM assessments WHERE person_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1',
    [person.id],
  );
  const estimate = newest?.estimate ?? result.estimate;
  await tx.query(
    `UPDATE people SET estimate = $2::jsonb, model_version = $3, verified = true, updated_at = now(),
       first_name = COALESCE(first_name, $4), last_name = COALESCE(last_name, $5)
     WHERE id = $1`,
    [person.id, JSON.stringify(estimate), estimate.modelVersion, result.first_name, result.last_name],
  );
  return { publicId: person.public_id };
}
