import { queryOne, type Queryable } from '../db/client.ts';
import { normalizeEmail } from '../people/normalize.ts';
import { AppError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './passwords.ts';

export interface User {
  id: string;
  email: string;
  /** The id in the user's test link, /t/<testLinkId>. */
  testLinkId: string;
  disabledAt: Date | null;
  /** When the address was confirmed (by mail, or by the operator who made the account); null: never. */
  emailConfirmedAt: Date | null;
  createdAt: Date;
}

interface UserRow extends Record<string, unknown> {
  id: string;
  email: string;
  test_link_id: string;
  disabled_at: Date | null;
  email_confirmed_at: Date | null;
  created_at: Date;
}

const COLUMNS = 'id, email, test_link_id, disabled_at, email_confirmed_at, created_at';

function fromRow(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    testLinkId: row.test_link_id,
    disabledAt: row.disabled_at ? new Date(row.disabled_at) : null,
    emailConfirmedAt: row.email_confirmed_at ? new Date(row.email_confirmed_at) : null,
    createdAt: new Date(row.created_at),
  };
}

/**
 * Link ids are 32 characters or more: request logs redact path segments that long
 * (src/shared/logger.ts), and a link is a credential of sorts.
 */
export function newLinkId(prefix: string): string {
  return newId(prefix, 24);
}

export function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    throw new AppError('bad_request', `A password needs ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters.`);
  }
}

/** A valid address, trimmed and normalised, or a bad_request naming the problem. */
export function accountEmail(raw: string): { email: string; normalized: string } {
  const email = raw.trim();
  const normalized = normalizeEmail(email);
  if (!normalized) throw new AppError('bad_request', 'Give a valid email address.');
  return { email, normalized };
}

/**
 * Creates an account. `confirmed`: its address is known to be the user's (an operator made it,
 * or the user followed the link mailed to it); where mail is set up, only such an account gets
 * an API token (src/users/api-token.ts).
 */
export async function createUser(db: Queryable, input: { email: string; password: string; confirmed: boolean }): Promise<User> {
  const { email, normalized } = accountEmail(input.email);
  checkPassword(input.password);
  return insertUser(db, { email, normalized, passwordHash: await hashPassword(input.password), confirmed: input.confirmed });
}

/** Stores an account whose password is hashed already; a conflict when the address has one. */
export async function insertUser(db: Queryable, input: { email: string; normalized: string; passwordHash: string; confirmed: boolean }): Promise<User> {
  const row = await queryOne<UserRow>(
    db,
    `INSERT INTO users (id, email, email_normalized, password_hash, test_link_id, email_confirmed_at)
     VALUES ($1, $2, $3, $4, $5, CASE WHEN $6::boolean THEN now() END)
     ON CONFLICT (email_normalized) DO NOTHING RETURNING ${COLUMNS}`,
    [newId('usr', 9), input.email, input.normalized, input.passwordHash, newLinkId('t'), input.confirmed],
  );
  if (!row) throw new AppError('conflict', 'A user with this email already exists.');
  return fromRow(row);
}

/** Marks the user's address confirmed (they followed the link mailed to it). */
export async function confirmUserEmail(db: Queryable, userId: string): Promise<void> {
  await db.query('UPDATE users SET email_confirmed_at = COALESCE(email_confirmed_at, now()) WHERE id = $1', [userId]);
}

/** True when an account has this address (normalised). */
export async function emailHasAccount(db: Queryable, normalized: string): Promise<boolean> {
  return (await queryOne(db, 'SELECT 1 AS found FROM users WHERE email_normalized = $1', [normalized])) !== undefined;
}

/** The user and their password hash, for a log-in; null for an unknown address. */
export async function findLogin(db: Queryable, email: string): Promise<{ user: User; passwordHash: string } | null> {
  const normalized = normalizeEmail(email);
  if (!normalized) return null;
  const row = await queryOne<UserRow & { password_hash: string }>(db, `SELECT ${COLUMNS}, password_hash FROM users WHERE email_normalized = $1`, [normalized]);
  return row ? { user: fromRow(row), passwordHash: row.password_hash } : null;
}

export async function findUserById(db: Queryable, id: string): Promise<User | null> {
  const row = await queryOne<UserRow>(db, `SELECT ${COLUMNS} FROM users WHERE id = $1`, [id]);
  return row ? fromRow(row) : null;
}

/** The live user whose test link this is; a disabled user's link finds no one. */
export async function findUserByTestLink(db: Queryable, testLinkId: string): Promise<User | null> {
  const row = await queryOne<UserRow>(db, `SELECT ${COLUMNS} FROM users WHERE test_link_id = $1 AND disabled_at IS NULL`, [testLinkId]);
  return row ? fromRow(row) : null;
}

export async function listUsers(db: Queryable): Promise<User[]> {
  return (await db.query<UserRow>(`SELECT ${COLUMNS} FROM users ORDER BY created_at, id`)).map(fromRow);
}

/**
 * Disables a user by id or email: their sessions end, their tokens are revoked, their links stop
 * taking tests. Returns the ids of the revoked tokens, so the caller can drop cached copies.
 */
export async function disableUser(db: Queryable, idOrEmail: string): Promise<{ user: User; revokedTokenIds: string[] }> {
  const normalized = normalizeEmail(idOrEmail);
  const row = await queryOne<UserRow>(
    db,
    `UPDATE users SET disabled_at = COALESCE(disabled_at, now()) WHERE id = $1 OR email_normalized = $2 RETURNING ${COLUMNS}`,
    [idOrEmail.trim(), normalized],
  );
  if (!row) throw new AppError('not_found', `No user ${idOrEmail}.`);
  await db.query('DELETE FROM user_sessions WHERE user_id = $1', [row.id]);
  const revoked = await db.query<{ id: string }>('UPDATE api_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL RETURNING id', [row.id]);
  return { user: fromRow(row), revokedTokenIds: revoked.map((r) => r.id) };
}

/** The organisation a user hands the test out for (set on the dashboard); null when not set. */
export async function organisationOf(db: Queryable, userId: string): Promise<string | null> {
  const row = await queryOne<{ organisation_name: string | null }>(db, 'SELECT organisation_name FROM users WHERE id = $1', [userId]);
  return row?.organisation_name ?? null;
}

const CONTROL = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;
export const ORGANISATION_MAX = 120;

/** Sets (or, with an empty name, clears) the organisation the test names as who is asking. */
export async function setOrganisation(db: Queryable, userId: string, name: string): Promise<string | null> {
  const cleaned = name.replace(/\s+/g, ' ').trim();
  if (cleaned.length > ORGANISATION_MAX || CONTROL.test(name.replace(/[\t\n\r]/g, ' '))) {
    throw new AppError('bad_request', `The organisation's name must be plain text of at most ${ORGANISATION_MAX} characters.`);
  }
  const value = cleaned === '' ? null : cleaned;
  await db.query('UPDATE users SET organisation_name = $2 WHERE id = $1', [userId, value]);
  return value;
}
