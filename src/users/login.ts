import type { RateLimiter } from '../access/rate-limit.ts';
import type { Queryable } from '../db/client.ts';
import { normalizeEmail } from '../people/normalize.ts';
import { AppError } from '../shared/errors.ts';
import { DUMMY_PASSWORD_HASH, verifyPassword } from './passwords.ts';
import { findLogin, type User } from './users.ts';

/** Log-in attempts allowed per minute for one account, and from one address. */
export const LOGIN_LIMITS = { perAccount: 5, perAddress: 20 } as const;

/** One message for every failure, so a log-in never tells whether an address is registered. */
export const LOGIN_FAILED = 'The email or password is not right.';

export interface LoginDeps {
  db: Queryable;
  limiter: RateLimiter;
}

/**
 * Checks an email and password. Attempts are counted per account and per client address
 * whether they succeed or not; over either limit the answer is a 429 before any password is
 * checked. An unknown address costs the same scrypt work as a wrong password.
 */
export async function logIn(deps: LoginDeps, input: { email: string; password: string; address: string }, now = Date.now()): Promise<User> {
  const account = normalizeEmail(input.email) ?? input.email.trim().toLowerCase().slice(0, 320);
  for (const [key, limit] of [
    [`login:address:${input.address}`, LOGIN_LIMITS.perAddress],
    [`login:account:${account}`, LOGIN_LIMITS.perAccount],
  ] as const) {
    const decision = await deps.limiter.hit(key, limit, now);
    if (!decision.allowed) {
      const seconds = Math.max(1, Math.ceil(decision.resetInMs / 1000));
      throw new AppError('rate_limited', `Too many log-in attempts; try again in ${seconds} s.`, { retryAfterSeconds: seconds });
    }
  }
  const found = await findLogin(deps.db, input.email);
  const ok = await verifyPassword(input.password, found?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!found || !ok || found.user.disabledAt) throw new AppError('unauthorized', LOGIN_FAILED);
  return found.user;
}
