import { createHash, randomBytes } from 'node:crypto';
import { queryOne, type Queryable } from '../db/client.ts';
import { CONFIRMATION_HOURS } from '../mail/messages.ts';
import { AppError } from '../shared/errors.ts';

export type ConfirmationPurpose = 'result' | 'signup' | 'account' | 'password';

/** What a link sent by mail confirms, as stored (never the secret itself, only its SHA-256). */
export interface Confirmation {
  purpose: ConfirmationPurpose;
  /** The result (purpose result) or the user (purpose account, password); null for a sign-up. */
  subjectId: string | null;
  email: string;
  emailNormalized: string;
  /** Purpose signup: the password hash the account is made with. */
  passwordHash: string | null;
}

interface ConfirmationRow extends Record<string, unknown> {
  purpose: ConfirmationPurpose;
  subject_id: string | null;
  email: string;
  email_normalized: string;
  password_hash: string | null;
}

function fromRow(row: ConfirmationRow): Confirmation {
  return { purpose: row.purpose, subjectId: row.subject_id, email: row.email, emailNormalized: row.email_normalized, passwordHash: row.password_hash };
}

/** Said for a link that was used, expired, or was cut short: which one is nobody's business. */
export const LINK_NOT_VALID = 'This confirmation link does not work: it was used already, it expired, or it is not complete. Ask for a new one.';

const TOKEN = /^[\w-]{40,60}$/;

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * A new link's secret (32 random bytes, 43 characters: request logs redact a path segment that
 * long). Only its hash is stored; the secret goes out in the mail and nowhere else.
 */
export async function issueConfirmation(tx: Queryable, confirmation: Confirmation, hours = CONFIRMATION_HOURS): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await tx.query(
    `INSERT INTO email_confirmations (token_hash, purpose, subject_id, email, email_normalized, password_hash, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(hours => $7::int))`,
    [hashOf(token), confirmation.purpose, confirmation.subjectId, confirmation.email, confirmation.emailNormalized, confirmation.passwordHash, hours],
  );
  return token;
}

/** What a live link would confirm, without using it (the page that asks to press Confirm); null if it does not work. */
export async function peekConfirmation(db: Queryable, token: string): Promise<Confirmation | null> {
  if (!TOKEN.test(token)) return null;
  const row = await queryOne<ConfirmationRow>(
    db,
    'SELECT purpose, subject_id, email, email_normalized, password_hash FROM email_confirmations WHERE token_hash = $1 AND expires_at > now()',
    [hashOf(token)],
  );
  return row ? fromRow(row) : null;
}

/**
 * Uses a link: its row is deleted as it is read, so of two clicks at once one gets it and the
 * other finds nothing. Run it in the transaction that does what the link confirms: if that
 * fails, the link still works.
 */
export async function consumeConfirmation(tx: Queryable, token: string): Promise<Confirmation> {
  const row = TOKEN.test(token)
    ? await queryOne<ConfirmationRow & { expired: boolean }>(
      tx,
      'DELETE FROM email_confirmations WHERE token_hash = $1 RETURNING purpose, subject_id, email, email_normalized, password_hash, expires_at <= now() AS expired',
      [hashOf(token)],
    )
    : undefined;
  if (!row || row.expired) throw new AppError('not_found', LINK_NOT_VALID);
  return fromRow(row);
}

/** Drops the links of a result or user that is gone (a deleted result's link must not linger). */
export async function dropConfirmationsOf(tx: Queryable, subjectId: string): Promise<void> {
  await tx.query('DELETE FROM email_confirmations WHERE subject_id = $1', [subjectId]);
}

/** Drops expired links (the hourly purge). */
export async function purgeExpiredConfirmations(db: Queryable): Promise<number> {
  return (await db.query('DELETE FROM email_confirmations WHERE expires_at <= now() RETURNING token_hash')).length;
}
