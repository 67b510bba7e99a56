import { describe, expect, it, vi } from 'vitest';
import { TokenAuthenticator, WrongTokenKind } from '../../src/access/authenticator.ts';
import { createToken, revokeToken } from '../../src/access/tokens.ts';
import type { Db } from '../../src/db/client.ts';
import { useTestDb } from '../helpers/db.ts';
import { useTestService } from '../helpers/service.ts';

const test = useTestDb();

/** The database with its statements counted. */
function counting(db: Db): { db: Db; queries: () => number } {
  let queries = 0;
  const counted = Object.create(db) as Db;
  counted.query = (...args: Parameters<Db['query']>) => {
    queries += 1;
    return db.query(...args);
  };
  return { db: counted, queries: () => queries };
}

describe('a token read in the last second is known without a lookup', () => {
  it('one statement for many calls within the second; known() answers at once, and again after the second it is read anew', async () => {
    const { secret, token } = await createToken(test.db, { kind: 'enterprise', name: 'cache' });
    let now = 1_000_000;
    const db = counting(test.db);
    const auth = new TokenAuthenticator(db.db, { ttlMs: 1_000, now: () => now });
    expect(auth.known(secret, 'enterprise')).toBeUndefined();
    for (let i = 0; i < 50; i += 1) expect((await auth.authenticate(secret, 'enterprise')).id).toBe(token.id);
    expect(db.queries()).toBe(1);
    expect(auth.known(secret, 'enterprise')?.id).toBe(token.id);
    // Of another kind: the same refusal as authenticate gives, from the cache too.
    expect(() => auth.known(secret, 'connect')).toThrow(WrongTokenKind);
    await expect(auth.authenticate(secret, 'connect')).rejects.toThrow(WrongTokenKind);
    now += 1_001;
    expect(auth.known(secret, 'enterprise')).toBeUndefined();
    await auth.authenticate(secret, 'enterprise');
    expect(db.queries()).toBe(2);
    // A revocation made through this process applies at once.
    await revokeToken(test.db, token.id);
    auth.forget(token.id);
    expect(auth.known(secret, 'enterprise')).toBeUndefined();
    await expect(auth.authenticate(secret, 'enterprise')).rejects.toThrow('revoked');
    expect(() => auth.known(secret, 'enterprise')).toThrow('revoked');
    // A wrong secret is never kept: each try is looked up.
    await expect(auth.authenticate(`${secret}x`, 'enterprise')).rejects.toThrow('not valid');
    expect(auth.known(`${secret}x`, 'enterprise')).toBeUndefined();
  });
});

describe('the cache holds a secret for its second only, and a bounded number of them', () => {
  it('an entry is dropped once its time is up, though nobody presents the token again', async () => {
    const { secret } = await createToken(test.db, { kind: 'enterprise', name: 'expiring' });
    const auth = new TokenAuthenticator(test.db, { ttlMs: 50 });
    await auth.authenticate(secret, 'enterprise');
    expect(auth.size).toBe(1);
    // The old cache kept every secret until it reached 10,000 entries.
    await vi.waitFor(() => expect(auth.size).toBe(0), { timeout: 5_000, interval: 20 });
  });

  it('past maxEntries the least recently presented token goes, and is read again when it comes back', async () => {
    const tokens = await Promise.all([1, 2, 3, 4, 5].map((n) => createToken(test.db, { kind: 'enterprise', name: `bounded ${n}` })));
    const db = counting(test.db);
    const auth = new TokenAuthenticator(db.db, { maxEntries: 3 });
    for (const { secret } of tokens) await auth.authenticate(secret, 'enterprise');
    expect(auth.size).toBe(3);
    expect(db.queries()).toBe(5);
    const [first, , , , last] = tokens;
    expect(auth.known(last?.secret ?? '', 'enterprise')?.id).toBe(last?.token.id);
    expect(auth.known(first?.secret ?? '', 'enterprise')).toBeUndefined();
    await auth.authenticate(first?.secret ?? '', 'enterprise');
    expect(db.queries()).toBe(6);
    expect(auth.size).toBe(3);
  });
});

describe('calls of a token without limits, admitted without waiting, are all counted', () => {
  const service = useTestService();

  it('GET /v1/usage counts every call, those admitted from the cache included', async () => {
    const { secret } = await service.token('enterprise', { rateLimitPerMinute: null, monthlyQuota: null });
    const headers = { authorization: `Bearer ${secret}` };
    for (let i = 0; i < 30; i += 1) expect((await service.base.inject({ url: '/v1/usage', headers })).statusCode).toBe(200);
    const answer = await service.base.inject({ url: '/v1/usage', headers });
    expect(answer.headers['x-ratelimit-limit']).toBeUndefined();
    expect(answer.json()).toMatchObject({ data: { calls_this_month: 31, rate_limit_per_minute: null, monthly_quota: null } });
    // Another group's credential is still refused with the explanation, from the cache too.
    const connect = await service.token('connect');
    for (let i = 0; i < 2; i += 1) {
      const refused = await service.base.inject({ url: '/v1/usage', headers: { authorization: `Bearer ${connect.secret}` } });
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ error: { code: 'unauthorized', message: expect.stringContaining('the token sent is a connect token') } });
    }
  });
});
