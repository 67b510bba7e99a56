import { AppError } from '../shared/errors.ts';
import type { Db } from '../db/client.ts';
import { findTokenBySecret, type ApiToken, type TokenKind } from './tokens.ts';

const API_NAMES: Record<TokenKind, string> = {
  enterprise: 'the Enterprise API',
  assessment: 'the Assessment API',
  connect: 'the Connect API',
};

/**
 * A live token of another API. It names the kind needed and the kind sent: the caller holds the
 * token, so its kind tells them nothing new, and it is the usual slip (a connect token on group A).
 */
export class WrongTokenKind extends AppError {
  constructor(
    readonly needed: TokenKind,
    readonly sent: TokenKind,
  ) {
    super('unauthorized', `The API token is not valid for ${API_NAMES[needed]}: it is ${sent === 'connect' ? 'a' : 'an'} ${sent} token, for ${API_NAMES[sent]}.`);
  }
}

function checked(token: ApiToken, kind: TokenKind): ApiToken {
  if (token.revokedAt) throw new AppError('unauthorized', 'The API token has been revoked.');
  if (token.kind !== kind) throw new WrongTokenKind(kind, token.kind);
  return token;
}

export function apiName(kind: TokenKind): string {
  return API_NAMES[kind];
}

/**
 * Resolves a presented token to its record. Known tokens are cached for a second so a busy
 * token costs one database round trip a second, not one a request; a revocation or a new limit
 * made through this process applies at once, one made by another process (several API
 * processes on one PostgreSQL) within `ttlMs`. The cache is keyed by the secret as presented,
 * so a call that finds its token there hashes nothing (the SHA-256 was ~3 % of an authenticated
 * request's CPU); only secrets of live tokens are kept, in this process's memory, which holds
 * every presented secret while its request is read anyway. Nothing here is ever logged.
 */
export class TokenAuthenticator {
  private readonly cache = new Map<string, { token: ApiToken; expires: number }>();

  constructor(
    private readonly db: Db,
    private readonly ttlMs = 1_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** `secret` is what the caller presented; the edge answers a missing one (it knows where it goes). */
  async authenticate(secret: string, kind: TokenKind): Promise<ApiToken> {
    const known = this.known(secret, kind);
    if (known) return known;
    const token = await findTokenBySecret(this.db, secret);
    if (!token) {
      this.cache.delete(secret);
      throw new AppError('unauthorized', 'The API token is not valid.');
    }
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(secret, { token, expires: this.now() + this.ttlMs });
    return checked(token, kind);
  }

  /**
   * The token, without waiting, when its record was read less than `ttlMs` ago; undefined when it
   * must be read (`authenticate`). Throws as `authenticate` does for a revoked token or one of
   * another kind.
   */
  known(secret: string, kind: TokenKind): ApiToken | undefined {
    const entry = this.cache.get(secret);
    if (!entry || entry.expires < this.now()) return undefined;
    return checked(entry.token, kind);
  }

  /** Drops cached records of a token whose state changed (revoked, new limits). */
  forget(tokenId: string): void {
    for (const [key, entry] of this.cache) if (entry.token.id === tokenId) this.cache.delete(key);
  }
}
