import { createHash, randomBytes } from 'node:crypto';
import { queryOne, type Queryable } from '../db/client.ts';
import { AppError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';

export const TOKEN_KINDS = ['enterprise', 'assessment', 'connect'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

const KIND_PREFIX: Record<TokenKind, string> = { enterprise: 'rpe', assessment: 'rpa', connect: 'rpc' };

export interface TokenLimits {
  monthlyQuota: number | null;
  rateLimitPerMinute: number | null;
}

/** The contract's defaults: group B is a free tier of 5,000 calls a month at 500 a minute. */
export const DEFAULT_LIMITS: Record<TokenKind, TokenLimits> = {
  // Billed by annual usage, so no quota; but a per-minute ceiling keeps one runaway client from
  // taking the CPU from everyone (10 a second). Operators lift it with --rate-limit none.
  enterprise: { monthlyQuota: null, rateLimitPerMinute: 600 },
  assessment: { monthlyQuota: 5000, rateLimitPerMinute: 500 },
  // The contract names a plan rate limit for group C without a value; 600 a minute is our default.
  connect: { monthlyQuota: null, rateLimitPerMinute: 600 },
};

export interface ApiToken extends TokenLimits {
  id: string;
  kind: TokenKind;
  name: string;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

interface TokenRow extends Record<string, unknown> {
  id: string;
  kind: TokenKind;
  name: string;
  token_prefix: string;
  monthly_quota: number | null;
  rate_limit_per_minute: number | null;
  created_at: Date;
  revoked_at: Date | null;
}

const COLUMNS = 'id, kind, name, token_prefix, monthly_quota, rate_limit_per_minute, created_at, revoked_at';

function fromRow(row: TokenRow): ApiToken {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    prefix: row.token_prefix,
    monthlyQuota: row.monthly_quota,
    rateLimitPerMinute: row.rate_limit_per_minute,
    createdAt: new Date(row.created_at),
    revokedAt: row.revoked_at ? new Date(row.revoked_at) : null,
  };
}

/**
 * Tokens carry 256 random bits, so a fast SHA-256 is enough to make a stolen table useless;
 * a slow password hash would only slow every request down.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function isTokenKind(value: string): value is TokenKind {
  return (TOKEN_KINDS as readonly string[]).includes(value);
}

/**
 * C0/C1 controls (line breaks, tabs, escapes), the Unicode line and paragraph separators, and
 * the bidirectional overrides: in a name they break or disguise the `tokens list` table.
 */
const CONTROL_CHARACTERS = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

export async function createToken(
  db: Queryable,
  input: { kind: TokenKind; name: string; limits?: Partial<TokenLimits> },
): Promise<{ token: ApiToken; secret: string }> {
  const name = input.name.trim();
  if (name.length === 0 || name.length > 200) throw new AppError('bad_request', 'A token needs a name of 1 to 200 characters.');
  if (CONTROL_CHARACTERS.test(name)) {
    throw new AppError('bad_request', 'A token name cannot contain control characters (line breaks, tabs and the like); use plain text.');
  }
  const limits = { ...DEFAULT_LIMITS[input.kind], ...input.limits };
  const secret = `${KIND_PREFIX[input.kind]}_${randomBytes(32).toString('base64url')}`;
  const row = await queryOne<TokenRow>(
    db,
    `INSERT INTO api_tokens (id, kind, name, token_hash, token_prefix, monthly_quota, rate_limit_per_minute)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
    [newId('tok', 9), input.kind, name, hashToken(secret), secret.slice(0, 8), limits.monthlyQuota, limits.rateLimitPerMinute],
  );
  if (!row) throw new AppError('internal', 'The token was not stored.');
  return { token: fromRow(row), secret };
}

export async function listTokens(db: Queryable): Promise<ApiToken[]> {
  const rows = await db.query<TokenRow>(`SELECT ${COLUMNS} FROM api_tokens ORDER BY created_at, id`);
  return rows.map(fromRow);
}

export async function findTokenBySecret(db: Queryable, secret: string): Promise<ApiToken | null> {
  const row = await queryOne<TokenRow>(db, `SELECT ${COLUMNS} FROM api_tokens WHERE token_hash = $1`, [hashToken(secret)]);
  return row ? fromRow(row) : null;
}

/**
 * Revokes a token; revoking it again keeps the first revocation's time. `alreadyRevoked` says
 * which happened (a row revoked by this statement has revoked_at = now(), the statement's start).
 */
export async function revokeToken(db: Queryable, id: string): Promise<{ token: ApiToken; alreadyRevoked: boolean }> {
  const row = await queryOne<TokenRow & { already_revoked: boolean }>(
    db,
    `UPDATE api_tokens SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 RETURNING ${COLUMNS}, revoked_at < now() AS already_revoked`,
    [id],
  );
  if (!row) throw new AppError('not_found', `No token with id ${id}.`);
  return { token: fromRow(row), alreadyRevoked: row.already_revoked };
}

export async function setTokenLimits(db: Queryable, id: string, limits: Partial<TokenLimits>): Promise<ApiToken> {
  const row = await queryOne<TokenRow>(
    db,
    `UPDATE api_tokens SET
       monthly_quota = CASE WHEN $2 THEN $3::integer ELSE monthly_quota END,
       rate_limit_per_minute = CASE WHEN $4 THEN $5::integer ELSE rate_limit_per_minute END
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, limits.monthlyQuota !== undefined, limits.monthlyQuota ?? null, limits.rateLimitPerMinute !== undefined, limits.rateLimitPerMinute ?? null],
  );
  if (!row) throw new AppError('not_found', `No token with id ${id}.`);
  return fromRow(row);
}
