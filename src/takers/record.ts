import { createHash } from 'node:crypto';
import { queryOne, type Db } from '../db/client.ts';
import { hitWindowLimits } from '../access/window-limits.ts';
import { issueConfirmation } from '../confirmations/tokens.ts';
import type { TraitEstimate } from '../personality/types.ts';
import { newLinkId } from '../users/users.ts';
import { emitWebhookEvents } from '../webhooks/events.ts';
import { submissionLimits } from './limits.ts';

export interface AssessmentRecord {
  userId: string;
  hiringLinkId: string | null;
  /** The link the test was sent through (`t:<id>` or `h:<id>`), for the limit per link. */
  linkKey: string;
  /** The taker's network (src/access/network.ts), for the limit per taker. */
  network: string;
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
  /**
   * The result's key, in the links that show and delete it. Null only for a repeat of a result
   * stored before keys were derived (its random key is known to nobody but its first link).
   */
  deleteKey: string | null;
  /** True when this attempt had been stored already: the same submission id, or the same answers again (below). */
  repeated: boolean;
  /** The secret of the confirmation link to mail the taker; null without mail, or for a repeat. */
  confirmationToken: string | null;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * A result's key, derived from its attempt's random submission id with the service's secret
 * (users/sessions.ts `derive`). Whoever sends the attempt again proves they hold it, so a repeat
 * is given the same key, and the taker who pressed Back and sent the test again lands on their
 * result, with its links, instead of on a page that will not open.
 */
export type ResultKeyOf = (submissionId: string) => Promise<string>;

/** How long the same answers, from the same address through the same link, count as the same attempt. */
export const REPEAT_WINDOW_HOURS = 24;

interface SeenRow extends Record<string, unknown> {
  id: string;
  submission_id: string;
  delete_hash: string;
}

/** The key of a stored result, if it is the derived one (results of before keys were derived have a random key). */
async function keyOf(row: SeenRow, keyFor: ResultKeyOf): Promise<string | null> {
  const key = await keyFor(row.submission_id);
  return hashKey(key) === row.delete_hash ? key : null;
}

/**
 * Stores a completed test as its user's result, and nobody's profile yet: no stored person is
 * touched until the taker confirms the address (src/takers/confirm.ts). Submitting the same
 * attempt again (same submission id, or the same answers from the same address through the same
 * link within a day) stores nothing and returns the first result with its key, so a double
 * click, a resent form or Back and send again is harmless and counts against no limit. With `mail`, a confirmation
 * link is issued in the same transaction; the caller mails it once the result is stored.
 */
export async function recordAssessment(db: Db, record: AssessmentRecord, options: { mail: boolean; keyFor: ResultKeyOf }): Promise<StoredAssessment> {
  const deleteKey = await options.keyFor(record.submissionId);
  return db.transaction(async (tx) => {
    const repeat = async (row: SeenRow): Promise<StoredAssessment> => ({ id: row.id, deleteKey: await keyOf(row, options.keyFor), repeated: true, confirmationToken: null });
    const seen = await queryOne<SeenRow>(tx, 'SELECT id, submission_id, delete_hash FROM assessments WHERE submission_id = $1', [record.submissionId]);
    if (seen) return repeat(seen);
    // The same answers from the same address through the same link, within a day: the page sent
    // again after Back, with a new attempt id (its saved one lost), not a second test.
    const same = await queryOne<SeenRow>(
      tx,
      `SELECT id, submission_id, delete_hash FROM assessments
       WHERE email_normalized = $1 AND user_id = $2 AND hiring_link_id IS NOT DISTINCT FROM $3 AND answers = $4::jsonb
         AND created_at > now() - make_interval(hours => $5::int)
       ORDER BY created_at DESC, id DESC LIMIT 1`,
      [record.emailNormalized, record.userId, record.hiringLinkId, JSON.stringify(record.answers), REPEAT_WINDOW_HOURS],
    );
    if (same) return repeat(same);
    await hitWindowLimits(tx, submissionLimits(record));
    const id = newLinkId('r');
    const inserted = await tx.query<{ id: string }>(
      `INSERT INTO assessments (id, submission_id, user_id, hiring_link_id, email, email_normalized, first_name, last_name,
         questionnaire_version, answers, estimate, delete_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11::jsonb, $12)
       ON CONFLICT (submission_id) DO NOTHING RETURNING id`,
      [
        id,
        record.submissionId,
        record.userId,
        record.hiringLinkId,
        record.email,
        record.emailNormalized,
        record.firstName,
        record.lastName,
        record.questionnaireVersion,
        JSON.stringify(record.answers),
        JSON.stringify(record.estimate),
        hashKey(deleteKey),
      ],
    );
    if (inserted.length === 0) {
      // The same attempt arrived twice at once and the other one won: answer with its result.
      const other = await queryOne<SeenRow>(tx, 'SELECT id, submission_id, delete_hash FROM assessments WHERE submission_id = $1', [record.submissionId]);
      if (other) return repeat(other);
    }
    // Its user's endpoints hear of it in the same transaction (src/webhooks/events.ts).
    await emitWebhookEvents(tx, [
      { owner: { userId: record.userId }, type: 'assessment.completed', data: { result_id: id, email: record.email }, emailNormalized: record.emailNormalized },
    ]);
    const confirmationToken = options.mail
      ? await issueConfirmation(tx, { purpose: 'result', subjectId: id, email: record.email, emailNormalized: record.emailNormalized, passwordHash: null })
      : null;
    return { id, deleteKey, repeated: false, confirmationToken };
  });
}
