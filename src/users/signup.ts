import { DAY_SECONDS, HOUR_SECONDS, hitWindowLimits, type WindowLimit } from '../access/window-limits.ts';
import { issueConfirmation, type Confirmation } from '../confirmations/tokens.ts';
import type { Db, Queryable } from '../db/client.ts';
import type { Mailer } from '../mail/mailer.ts';
import { accountConfirmationMail, alreadyRegisteredMail, signupConfirmationMail } from '../mail/messages.ts';
import { normalizeEmail } from '../people/normalize.ts';
import { AppError, isAppError } from '../shared/errors.ts';
import { hashPassword } from './passwords.ts';
import { accountEmail, checkPassword, confirmUserEmail, emailHasAccount, insertUser, type User } from './users.ts';

/**
 * Sign-ups one address and one network may ask for (docs/api-decisions.md), counted in the
 * database so they hold across every process on it. Each may send a mail, hence the day's cap
 * per address; per network (an IPv4 /24, an IPv6 /64) so one machine cannot farm accounts.
 */
export const SIGNUP_LIMITS = {
  perAddressPerDay: 5,
  perNetworkPerHour: 10,
  perNetworkPerDay: 30,
} as const;

/** Links an account may have mailed to confirm its address, a day. */
export const ACCOUNT_CONFIRMATIONS_PER_DAY = 3;

export interface SignupDeps {
  db: Db;
  mailer: Mailer;
  /** PUBLIC_BASE_URL: the base of links in mail (set whenever mail is). */
  publicBaseUrl: string | null;
}

function signupLimits(normalized: string, network: string): WindowLimit[] {
  const fromNetwork = 'Too many accounts were asked for from your network';
  return [
    { key: `signup:network:${network}`, limit: SIGNUP_LIMITS.perNetworkPerHour, windowSeconds: HOUR_SECONDS, refusal: `${fromNetwork} in the last hour.` },
    { key: `signup:network:${network}`, limit: SIGNUP_LIMITS.perNetworkPerDay, windowSeconds: DAY_SECONDS, refusal: `${fromNetwork} today.` },
    { key: `signup:address:${normalized}`, limit: SIGNUP_LIMITS.perAddressPerDay, windowSeconds: DAY_SECONDS, refusal: 'Too many sign-ups were asked for with this address today.' },
  ];
}

function mailBase(deps: SignupDeps): string | null {
  return deps.mailer.enabled ? deps.publicBaseUrl : null;
}

/**
 * Asks for an account. Whether the address has an account already changes nothing the caller
 * sees: the same work (the password is hashed either way), the same limits, the same answer.
 *
 * - With mail: nothing is created yet. A new address is mailed a link that creates the account
 *   when followed (`confirmSignup`), so an account exists only for someone who reads its
 *   mailbox; an address with an account is mailed a notice instead.
 * - Without mail: the account is created unless the address has one, unconfirmed; either way
 *   the caller is sent to log in. Who knows a registered address's password can tell it apart
 *   only by logging in (docs/api-decisions.md).
 */
export async function requestSignup(deps: SignupDeps, input: { email: string; password: string; network: string }): Promise<void> {
  const { email, normalized } = accountEmail(input.email);
  checkPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  const base = mailBase(deps);
  const outcome = await deps.db.transaction(async (tx) => {
    await hitWindowLimits(tx, signupLimits(normalized, input.network));
    const taken = await emailHasAccount(tx, normalized);
    if (base !== null) {
      if (taken) return { notice: true, token: null };
      return { notice: false, token: await issueConfirmation(tx, { purpose: 'signup', subjectId: null, email, emailNormalized: normalized, passwordHash }) };
    }
    if (!taken) await insertUser(tx, { email, normalized, passwordHash, confirmed: false }).catch(ignoreConflict);
    return { notice: false, token: null };
  });
  if (base === null) return;
  if (outcome.token !== null) deps.mailer.send(signupConfirmationMail(email, base, outcome.token));
  else if (outcome.notice) deps.mailer.send(alreadyRegisteredMail(email, base));
}

function ignoreConflict(error: unknown): void {
  // The address got an account between the check and the insert: the same as taken.
  if (!isAppError(error) || error.code !== 'conflict') throw error;
}

/** Creates the account a followed sign-up link stood for, confirmed; a conflict if the address has one meanwhile. */
export async function confirmSignup(tx: Queryable, confirmation: Confirmation): Promise<User> {
  if (confirmation.passwordHash === null) throw new AppError('internal', 'A sign-up link without its password hash.');
  const user = await insertUser(tx, { email: confirmation.email, normalized: confirmation.emailNormalized, passwordHash: confirmation.passwordHash, confirmed: true }).catch((error: unknown) => {
    if (isAppError(error) && error.code === 'conflict') throw new AppError('conflict', 'This address has an account already: log in with it.');
    throw error;
  });
  // Other sign-up links for the address (asked for twice) can only fail now.
  await tx.query('DELETE FROM email_confirmations WHERE purpose = \'signup\' AND email_normalized = $1', [confirmation.emailNormalized]);
  return user;
}

/**
 * Mails the user a link that confirms their account's address: an account made while the
 * service sent no mail needs it before it gets an API token once mail is set up.
 */
export async function requestAccountConfirmation(deps: SignupDeps, user: User): Promise<void> {
  const base = mailBase(deps);
  if (base === null) throw new AppError('bad_request', 'This service sends no mail, so addresses are not confirmed: no confirmation is needed.');
  if (user.emailConfirmedAt !== null) return;
  const normalized = normalizeEmail(user.email);
  if (!normalized) throw new AppError('bad_request', 'Your account\'s address is not one mail can be sent to; ask the operator.');
  const token = await deps.db.transaction(async (tx) => {
    await hitWindowLimits(tx, [
      { key: `account-confirm:${user.id}`, limit: ACCOUNT_CONFIRMATIONS_PER_DAY, windowSeconds: DAY_SECONDS, refusal: `A confirmation link was sent ${ACCOUNT_CONFIRMATIONS_PER_DAY} times today.` },
    ]);
    return issueConfirmation(tx, { purpose: 'account', subjectId: user.id, email: user.email, emailNormalized: normalized, passwordHash: null });
  });
  deps.mailer.send(accountConfirmationMail(user.email, base, token));
}

/** A followed account link: the address is the user's. */
export async function confirmAccount(tx: Queryable, confirmation: Confirmation): Promise<void> {
  if (confirmation.subjectId === null) throw new AppError('internal', 'An account link without its account.');
  await confirmUserEmail(tx, confirmation.subjectId);
}
