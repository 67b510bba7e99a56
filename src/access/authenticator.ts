import { LRUCache } from 'lru-cache';
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

export interface TokenCacheOptions {
  /** How long a token read from the database is used without reading it again (ms). */
  ttlMs?: number;
  /** Tokens kept at most: past it, the least recently presented goes first. */
  maxEntries?: number;
  /** The clock the ages are read from (tests move it by hand). */
  now?: () => number;
}

/**
 * Resolves a presented token to its record. Known tokens are cached for a second so a busy
 * token costs one database round trip a second, not one a request; a revocation or a new limit
 * made through this process applies at once, one made by another process (several API
 * processes on one PostgreSQL) within `ttlMs`. The cache is keyed by the secret as presented,
 * so a call that finds its token there hashes nothing (the SHA-256 was ~3 % of an authenticated
 * request's CPU); only secrets of live tokens are kept, in this process's memory, and each
 * for its second only: an entry is dropped when it expires (a timer per entry, lru-cache's
 * `ttlAutopurge`), not kept until the cache fills, and at most `maxEntries` are held. Nothing
 * here is ever logged.
 */
export class TokenAuthenticator {
  private readonly cache: LRUCache<string, ApiToken>;

  constructor(
    private readonly db: Db,
    { ttlMs = 1_000, maxEntries = 10_000, now }: TokenCacheOptions = {},
  ) {
    // ttlResolution 0: the clock is read on each lookup (cheaper than lru-cache's default, a timer
    // a millisecond to cache it) and an entry is never used past its age.
    this.cache = new LRUCache<string, ApiToken>({ max: maxEntries, ttl: ttlMs, ttlAutopurge: true, ttlResolution: 0, ...(now ? { perf: { now } } : {}) });
  }

  /** `secret` is what the caller presented; the edge answers a missing one (it knows where it goes). */
  async authenticate(secret: string, kind: TokenKind): Promise<ApiToken> {
    const known = this.known(secret, kind);
    if (known) return known;
    const token = await findTokenBySecret(this.db, secret);
    if (!token) {
      this.cache.delete(secret);
      throw new AppError('unauthorized', 'The API token is not valid.');
    }
    this.cache.set(secret, token);
    return checked(token, kind);
  }

  /**
   * The token, without waiting, when its record was read less than `ttlMs` ago; undefined when it
   * must be read (`authenticate`). Throws as `authenticate` does for a revoked token or one of
   * another kind.
   */
  known(secret: string, kind: TokenKind): ApiToken | undefined {
    const token = this.cache.get(secret);
    return token ? checked(token, kind) : undefined;
  }

  /** Tokens held now (each for its `ttlMs` at most). */
  get size(): number {
    return this.cache.size;
  }

  /** Drops cached records of a token whose state changed (revoked, new limits). */
  forget(tokenId: string): void {
    const keys = [...this.cache.entries()].filter(([, token]) => token.id === tokenId).map(([key]) => key);
    for (const key of keys) this.cache.delete(key);
  }
}
