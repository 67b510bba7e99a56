import { AppError } from '../shared/errors.ts';
import type { Db } from '../db/client.ts';
import { findTokenBySecret, hashToken, type ApiToken, type TokenKind } from './tokens.ts';

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

export function apiName(kind: TokenKind): string {
  return API_NAMES[kind];
}

/**
 * Resolves a presented token to its record. Known tokens are cached for a second so a busy
 * token costs one database round trip a second, not one a request; a revocation or a new limit
 * made through this process applies at once, one made by another process (several API
 * processes on one PostgreSQL) within `ttlMs`.
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
    const key = hashToken(secret);
    let entry = this.cache.get(key);
    if (!entry || entry.expires < this.now()) {
      const token = await findTokenBySecret(this.db, secret);
      if (!token) {
        this.cache.delete(key);
        throw new AppError('unauthorized', 'The API token is not valid.');
      }
      entry = { token, expires: this.now() + this.ttlMs };
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(key, entry);
    }
    const { token } = entry;
    if (token.revokedAt) throw new AppError('unauthorized', 'The API token has been revoked.');
    if (token.kind !== kind) throw new WrongTokenKind(kind, token.kind);
    return token;
  }

  /** Drops cached records of a token whose state changed (revoked, new limits). */
  forget(tokenId: string): void {
    for (const [key, entry] of this.cache) if (entry.token.id === tokenId) this.cache.delete(key);
  }
}
