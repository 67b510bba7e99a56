import { DAY_SECONDS, HOUR_SECONDS, hitWindowLimits } from '../access/window-limits.ts';
import { issueConfirmation, type Confirmation } from '../confirmations/tokens.ts';
import { queryOne, type Queryable } from '../db/client.ts';
import { passwordResetMail } from '../mail/messages.ts';
import { AppError } from '../shared/errors.ts';
import { hashPassword } from './passwords.ts';
import { accountEmail, checkPassword, findUserById, type User } from './users.ts';
import type { SignupDeps } from './signup.ts';

/** Reset links an address and a network may ask for: each may send a mail. */
export const PASSWORD_RESET_LIMITS = { perAddressPerDay: 3, perNetworkPerHour: 10 } as const;
/** A reset link works for this long: shorter than a sign-up's, since it opens an existing account. */
export const PASSWORD_RESET_HOURS = 2;

/**
 * Asks for a password-reset link. Whether the address has an account changes nothing the caller
 * sees (the same limits, the same answer); only an address with a live account is mailed. The
 * link (`/confirm/<secret>`, purpose `password`) opens a form for a new password.
 */
export async function requestPasswordReset(deps: SignupDeps, input: { email: string; network: string }): Promise<void> {
  if (!deps.mailer.enabled || deps.publicBaseUrl === null) throw new AppError('bad_request', 'This service sends no mail: ask its operator to reset your password.');
  const base = deps.publicBaseUrl;
  const { email, normalized } = accountEmail(input.email);
  const token = await deps.db.transaction(async (tx) => {
    await hitWindowLimits(tx, [
      { key: `password:network:${input.network}`, limit: PASSWORD_RESET_LIMITS.perNetworkPerHour, windowSeconds: HOUR_SECONDS, refusal: 'Too many password resets were asked for from your network in the last hour.' },
      { key: `password:address:${normalized}`, limit: PASSWORD_RESET_LIMITS.perAddressPerDay, windowSeconds: DAY_SECONDS, refusal: 'Too many password resets were asked for with this address today.' },
    ]);
    const user = await queryOne<{ id: string; email: string }>(tx, 'SELECT id, email FROM users WHERE email_normalized = $1 AND disabled_at IS NULL', [normalized]);
    if (!user) return null;
    return { to: user.email, secret: await issueConfirmation(tx, { purpose: 'password', subjectId: user.id, email, emailNormalized: normalized, passwordHash: null }, PASSWORD_RESET_HOURS) };
  });
  if (token !== null) deps.mailer.send(passwordResetMail(token.to, base, token.secret));
}

/** Gives an account a new password (already hashed) and ends its sessions everywhere. */
async function setPasswordHash(tx: Queryable, userId: string, passwordHash: string): Promise<void> {
  await tx.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
  await tx.query('DELETE FROM user_sessions WHERE user_id = $1', [userId]);
}

/**
 * A followed reset link with its new password: the password changes, every session of the
 * account ends (whoever knew the old one is logged out), the account's other reset links are
 * void, and the address counts as confirmed (the link was read in its mailbox). `passwordHash`
 * is the new password the link's form asks for; null when it was not given.
 */
export async function confirmPasswordReset(tx: Queryable, confirmation: Confirmation, passwordHash: string | null): Promise<User> {
  // Without a new password the transaction fails and the link stays usable.
  if (passwordHash === null) throw new AppError('bad_request', 'Choose a new password to use this link.');
  const userId = confirmation.subjectId;
  const user = userId === null ? null : await findUserById(tx, userId);
  if (!user || user.disabledAt) throw new AppError('not_found', 'This account no longer exists.');
  await setPasswordHash(tx, user.id, passwordHash);
  await tx.query("DELETE FROM email_confirmations WHERE purpose = 'password' AND subject_id = $1", [user.id]);
  await tx.query('UPDATE users SET email_confirmed_at = COALESCE(email_confirmed_at, now()) WHERE id = $1', [user.id]);
  return (await findUserById(tx, user.id)) ?? user;
}

/** A new password checked and hashed, before any transaction (scrypt takes tens of milliseconds). */
export async function newPasswordHash(password: string): Promise<string> {
  checkPassword(password);
  return hashPassword(password);
}

/** The operator's reset (`rapport users reset-password`): by id or email; the account's sessions end. */
export async function resetPassword(db: Queryable, idOrEmail: string, password: string): Promise<User> {
  const hash = await newPasswordHash(password);
  const normalized = idOrEmail.includes('@') ? accountEmail(idOrEmail).normalized : null;
  const row = await queryOne<{ id: string }>(db, 'SELECT id FROM users WHERE id = $1 OR email_normalized = $2', [idOrEmail.trim(), normalized]);
  const user = row ? await findUserById(db, row.id) : null;
  if (!user) throw new AppError('not_found', `No user ${idOrEmail}.`);
  await setPasswordHash(db, user.id, hash);
  return user;
}
