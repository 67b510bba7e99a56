import type { TokenAuthenticator } from '../access/authenticator.ts';
import { createToken, type ApiToken } from '../access/tokens.ts';
import type { UsageMeter } from '../access/usage.ts';
import { queryOne, type Db } from '../db/client.ts';
import type { Mailer } from '../mail/mailer.ts';
import { AppError } from '../shared/errors.ts';
import type { User } from './users.ts';

export interface UserTokenDeps {
  db: Db;
  auth: TokenAuthenticator;
  meter: UsageMeter;
  /** Where mail is set up, only an account whose address is confirmed gets a token. */
  mailer: Pick<Mailer, 'enabled'>;
}

/** Said on the dashboard instead of making a token. */
export const CONFIRM_FOR_TOKEN = 'Confirm your email address to create your API token: we mail you a link.';

/**
 * Where the service sends mail, the free tier goes only to an account whose address was
 * confirmed, so accounts made up in bulk get nothing to call the API with. Without mail no
 * address can be confirmed, and every account gets one (docs/api-decisions.md).
 */
export function mayHaveToken(mailer: Pick<Mailer, 'enabled'>, user: User): boolean {
  return !mailer.enabled || user.emailConfirmedAt !== null;
}

interface TokenRow extends Record<string, unknown> {
  id: string;
  name: string;
  token_prefix: string;
  monthly_quota: number | null;
  rate_limit_per_minute: number | null;
  created_at: Date;
}

/** The user's live assessment token (never its secret, which is not kept). */
export async function activeUserToken(db: Db, userId: string): Promise<ApiToken | null> {
  const row = await queryOne<TokenRow>(
    db,
    `SELECT id, name, token_prefix, monthly_quota, rate_limit_per_minute, created_at FROM api_tokens
     WHERE user_id = $1 AND kind = 'assessment' AND revoked_at IS NULL ORDER BY created_at DESC LIMIT 1`,
    [userId],
  );
  if (!row) return null;
  return {
    id: row.id,
    kind: 'assessment',
    name: row.name,
    prefix: row.token_prefix,
    monthlyQuota: row.monthly_quota,
    rateLimitPerMinute: row.rate_limit_per_minute,
    createdAt: new Date(row.created_at),
    revokedAt: null,
  };
}

/**
 * Creates the user's assessment token, revoking the one they had (rotation). The free tier is
 * the user's, not the token's: this month's and this year's counts move to the new token, so
 * rotating does not reset the 5,000 calls. Returns the secret, shown once.
 */
export async function issueUserToken(deps: UserTokenDeps, user: User): Promise<{ token: ApiToken; secret: string; revokedIds: string[] }> {
  if (!mayHaveToken(deps.mailer, user)) throw new AppError('forbidden', CONFIRM_FOR_TOKEN);
  // Counts still in memory must be in the table before they are carried over.
  await deps.meter.flush();
  const result = await deps.db.transaction(async (tx) => {
    // Serialises two rotations of one user (two tabs), so only one token stays live.
    await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [user.id]);
    const revoked = await tx.query<{ id: string }>(
      'UPDATE api_tokens SET revoked_at = now() WHERE user_id = $1 AND kind = \'assessment\' AND revoked_at IS NULL RETURNING id',
      [user.id],
    );
    const created = await createToken(tx, { kind: 'assessment', name: `dashboard ${user.email}`.slice(0, 200) });
    await tx.query('UPDATE api_tokens SET user_id = $1 WHERE id = $2', [user.id, created.token.id]);
    const revokedIds = revoked.map((r) => r.id);
    if (revokedIds.length > 0) {
      await tx.query(
        `INSERT INTO usage_counters (token_id, month, calls)
         SELECT $1, month, SUM(calls) FROM usage_counters WHERE token_id = ANY($2::text[]) AND month LIKE $3 GROUP BY month`,
        [created.token.id, revokedIds, `${new Date().getUTCFullYear()}-%`],
      );
    }
    return { ...created, revokedIds };
  });
  for (const id of result.revokedIds) deps.auth.forget(id);
  return result;
}
