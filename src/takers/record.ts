import { createHash, randomBytes } from 'node:crypto';
import { queryOne, type Db } from '../db/client.ts';
import { hitWindowLimits } from '../accounts/window-limits.ts';
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
  /** The taker's network (src/accounts/network.ts), for the limit per taker. */
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
  /** Shown once, in the link that deletes the result; null when this submission was stored before. */
  deleteKey: string | null;
  /** True when this submission id had been stored already (a second click, a resent form). */
  repeated: boolean;
  /** The secret of the confirmation link to mail the taker; null without mail, or for a repeat. */
  confirmationToken: string | null;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * Stores a completed test as its user's result, and nobody's profile yet: no stored person is
 * touched until the taker confirms the address (src/takers/confirm.ts). Submitting the same
 * attempt again (same submission id) stores nothing and returns the first result, so a double
 * click or a resent form is harmless and counts against no limit. With `mail`, a confirmation
 * link is issued in the same transaction; the caller mails it once the result is stored.
 */
export async function recordAssessment(db: Db, record: AssessmentRecord, options: { mail: boolean }): Promise<StoredAssessment> {
  return db.transaction(async (tx) => {
    const seen = await queryOne<{ id: string }>(tx, 'SELECT id FROM assessments WHERE submission_id = $1', [record.submissionId]);
    if (seen) return { id: seen.id, deleteKey: null, repeated: true, confirmationToken: null };
    await hitWindowLimits(tx, submissionLimits(record));
    const id = newLinkId('r');
    const deleteKey = randomBytes(24).toString('base64url');
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
      const other = await queryOne<{ id: string }>(tx, 'SELECT id FROM assessments WHERE submission_id = $1', [record.submissionId]);
      if (other) return { id: other.id, deleteKey: null, repeated: true, confirmationToken: null };
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
