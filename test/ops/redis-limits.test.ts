import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { RedisRateLimiter } from '../../src/access/redis-rate-limit.ts';
import { buildBaseApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createContext, type AppContext } from '../../src/context.ts';
import { tokenVerbs } from '../../src/operator/token-verbs.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { connectRedis } from '../../src/shared/redis.ts';
import { createToken } from '../../src/access/tokens.ts';
import { Browser, csrfOf } from '../helpers/assessment.ts';
import { useTestDb } from '../helpers/db.ts';
import { freePort } from '../helpers/process.ts';
import { HAVE_REDIS, startRedis, type RedisServer } from '../helpers/redis.ts';

describe.skipIf(!HAVE_REDIS)('per-minute limits shared through Redis', () => {
  let server: RedisServer;
  const clients: Redis[] = [];
  const client = async () => {
    const redis = await connectRedis(server.url);
    clients.push(redis);
    return redis;
  };

  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    for (const redis of clients) redis.disconnect();
    await server.stop();
  });

  it('counts one window across processes: two limiters of 3 a minute admit 3 calls in all', async () => {
    const failures: unknown[] = [];
    const one = new RedisRateLimiter(await client(), (e) => failures.push(e), 'test:shared');
    const two = new RedisRateLimiter(await client(), (e) => failures.push(e), 'test:shared');
    const now = Date.now();
    const decisions = [await one.hit('tok', 3, now), await two.hit('tok', 3, now), await one.hit('tok', 3, now), await two.hit('tok', 3, now)];
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0, 0]);
    expect(decisions[3]?.resetInMs).toBeGreaterThan(0);
    expect(decisions[3]?.resetInMs).toBeLessThanOrEqual(60_000);
    // Another token has its own window.
    expect((await one.hit('other', 3, now)).allowed).toBe(true);
    expect(failures).toEqual([]);
  });

  /** Script calls Redis has answered (EVALSHA, or EVAL where the client sends the script itself). */
  async function scriptCalls(redis: Redis): Promise<number> {
    const stats = await redis.info('commandstats');
    return ['evalsha', 'eval'].reduce((sum, name) => sum + Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(stats)?.[1] ?? 0), 0);
  }

  it('takes a busy key\'s points in leases: never past the limit, at most 1 % of it left unused per process, far fewer round trips', async () => {
    const redis = await client();
    const one = new RedisRateLimiter(redis, () => undefined, 'test:lease');
    const two = new RedisRateLimiter(await client(), () => undefined, 'test:lease');
    const before = await scriptCalls(redis);
    let allowed = 0;
    // 1,500 calls of a 1,000/min token, 50 at a time, alternating between the two processes.
    for (let wave = 0; wave < 30; wave += 1) {
      const limiter = wave % 2 === 0 ? one : two;
      const decisions = await Promise.all(Array.from({ length: 50 }, () => limiter.hit('busy', 1000, Date.now())));
      allowed += decisions.filter((d) => d.allowed).length;
    }
    expect(allowed).toBeLessThanOrEqual(1000);
    expect(allowed).toBeGreaterThanOrEqual(1000 - 2 * 10);
    // One call one round trip would be 1,500 (refusals are answered in the process).
    expect((await scriptCalls(redis)) - before).toBeLessThan(300);
  });

  it('drops a lease\'s unused points when its window ends', async () => {
    const redis = await client();
    // One-second windows, so the test need not wait a minute; 1,000 a window: leases up to 10.
    const limiter = new RedisRateLimiter(redis, () => undefined, 'test:lease-window', 1);
    for (let i = 0; i < 20; i += 1) await limiter.hit('tok', 1000, Date.now());
    // Leases of 1, 2, 4 and 8 points, then 10: five of them left, handed out without Redis.
    const before = await scriptCalls(redis);
    expect((await limiter.hit('tok', 1000, Date.now())).allowed).toBe(true);
    expect(await scriptCalls(redis)).toBe(before);
    await new Promise((r) => setTimeout(r, 1100));
    const next = await limiter.hit('tok', 1000, Date.now());
    expect(next.allowed).toBe(true);
    expect(next.resetInMs).toBeGreaterThan(500);
    expect(await scriptCalls(redis)).toBe(before + 1);
  });

  it('fails open when Redis goes away, and reports each call', async () => {
    const own = await startRedis();
    const redis = await connectRedis(own.url);
    clients.push(redis);
    const failures: unknown[] = [];
    const limiter = new RedisRateLimiter(redis, (e) => failures.push(e), 'test:lost');
    expect((await limiter.hit('tok', 1, Date.now())).allowed).toBe(true);
    expect((await limiter.hit('tok', 1, Date.now())).allowed).toBe(false);
    await own.stop();
    await new Promise((r) => setTimeout(r, 200));
    const decision = await limiter.hit('fresh', 1, Date.now());
    expect(decision.allowed).toBe(true);
    expect(failures.length).toBe(1);
    // A key already found over its limit stays refused for the rest of its window: the answer
    // Redis gave is kept in the process, so it needs no round trip (and no fail-open) to repeat it.
    expect((await limiter.hit('tok', 1, Date.now())).allowed).toBe(false);
    expect(failures.length).toBe(1);
  });

  it('keeps counting after Redis forgot the script (a restart, SCRIPT FLUSH), with no fail-open', async () => {
    const redis = await client();
    const failures: unknown[] = [];
    const limiter = new RedisRateLimiter(redis, (e) => failures.push(e), 'test:flush');
    expect((await limiter.hit('tok', 3, Date.now())).remaining).toBe(2);
    await redis.script('FLUSH');
    const after = await Promise.all([limiter.hit('tok', 3, Date.now()), limiter.hit('tok', 3, Date.now()), limiter.hit('tok', 3, Date.now())]);
    expect(after.map((d) => d.allowed)).toEqual([true, true, false]);
    expect(failures).toEqual([]);
  });

  it('keeps refusals in the process until the window ends, and asks Redis again for a raised limit', async () => {
    const redis = await client();
    const limiter = new RedisRateLimiter(redis, () => undefined, 'test:block');
    const now = Date.now();
    expect((await limiter.hit('tok', 2, now)).allowed).toBe(true);
    expect((await limiter.hit('tok', 2, now)).allowed).toBe(true);
    const refused = await limiter.hit('tok', 2, now);
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    // Script calls of any kind (EVALSHA, or EVAL where the client sends the script itself).
    const calls = async () => {
      const stats = await redis.info('commandstats');
      return ['evalsha', 'eval'].reduce((sum, name) => sum + Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(stats)?.[1] ?? 0), 0);
    };
    const before = await calls();
    for (let i = 0; i < 5; i += 1) {
      const again = await limiter.hit('tok', 2, Date.now());
      expect(again.allowed).toBe(false);
      expect(again.resetInMs).toBeGreaterThan(0);
      expect(again.resetInMs).toBeLessThanOrEqual(refused.resetInMs);
    }
    expect(await calls()).toBe(before);
    // The token's limit was raised: Redis counts on from 3 (the refused call counted too).
    expect(await limiter.hit('tok', 5, Date.now())).toMatchObject({ allowed: true, remaining: 1 });
    expect(await calls()).toBe(before + 1);
  });

  it('refuses to start when Redis cannot be reached, naming REDIS_URL', async () => {
    const port = await freePort();
    await expect(connectRedis(`redis://:secret-password@127.0.0.1:${port}`, 1000)).rejects.toThrow(
      new RegExp(`^Redis at redis://:\\*\\*\\*@127\\.0\\.0\\.1:${port} \\(REDIS_URL\\) is not reachable`),
    );
  });

  describe('two API processes on one database', () => {
    const testDb = useTestDb();
    const contexts: AppContext[] = [];

    afterAll(async () => {
      for (const ctx of contexts) await ctx.shutdown();
    });

    async function apiProcess() {
      const config = { ...loadConfig({ LOG_LEVEL: 'silent', RAPPORT_DEMO_DATA: 'false', REDIS_URL: server.url }), databaseUrl: testDb.url };
      const ctx = createContext(config, testDb.db, createLogger('silent'), { runJobs: false, redis: await client() });
      contexts.push(ctx);
      return { ctx, app: await buildBaseApp(ctx) };
    }

    it('holds a 3/min limit across both, and a revocation in one reaches the other within a second', async () => {
      const a = await apiProcess();
      const b = await apiProcess();
      const { secret } = await createToken(testDb.db, { kind: 'enterprise', name: 'shared', limits: { rateLimitPerMinute: 3 } });
      const call = (app: typeof a.app) => app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: `Bearer ${secret}` } });
      const statuses = [(await call(a.app)).statusCode, (await call(b.app)).statusCode, (await call(a.app)).statusCode, (await call(b.app)).statusCode];
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await call(a.app);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

      const { token: other, secret: otherSecret } = await createToken(testDb.db, { kind: 'enterprise', name: 'revoked' });
      const callOther = (app: typeof a.app) => app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: `Bearer ${otherSecret}` } });
      expect((await callOther(a.app)).statusCode).toBe(200);
      expect((await callOther(b.app)).statusCode).toBe(200);
      await tokenVerbs['tokens.revoke'].run(a.ctx, { id: other.id }, () => undefined);
      expect((await callOther(a.app)).statusCode).toBe(401);
      await new Promise((r) => setTimeout(r, 1100));
      const late = await callOther(b.app);
      expect(late.statusCode).toBe(401);
      expect(late.json().error.message).toMatch(/revoked/);
    });

    it('counts log-in attempts for an account across both: five failures in all, then 429 from either', async () => {
      const a = new Browser((await apiProcess()).app);
      const b = new Browser((await apiProcess()).app);
      const [pageA, pageB] = [await a.get('/login'), await b.get('/login')];
      const attempt = (browser: Browser, page: typeof pageA) => browser.post('/login', { csrf: csrfOf(page.body), email: 'guessed@example.com', password: 'a wrong guess' });
      const statuses: number[] = [];
      for (const [browser, page] of [[a, pageA], [b, pageB], [a, pageA], [b, pageB], [a, pageA], [b, pageB], [a, pageA]] as const) {
        statuses.push((await attempt(browser, page)).statusCode);
      }
      // Counted in each process alone, the sixth and seventh would still be checked (3 and 4 there).
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    });
  });
});
