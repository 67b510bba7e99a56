import { beforeEach, describe, expect, it } from 'vitest';
import { monthOf, UsageMeter } from '../../src/access/usage.ts';
import type { Db, Row } from '../../src/db/client.ts';
import { useTestService } from '../helpers/service.ts';
import { inOneMonth, inOneRateWindow } from '../helpers/minute-window.ts';

const service = useTestService();

// Counts are kept per UTC month: none of these tests may straddle the first of a month.
beforeEach(() => inOneMonth());

describe('rate limits, quotas and metering', () => {
  it('the fourth call in a minute with a 3/min limit gets 429 with Retry-After', async () => {
    const token = await service.token('connect', { rateLimitPerMinute: 3 });
    const call = () => service.connect.inject({ url: '/v1/usage', headers: { 'x-org-token': token.secret } });
    await inOneRateWindow();
    const statuses = [(await call()).statusCode, (await call()).statusCode, (await call()).statusCode];
    const last = await call();
    expect(statuses).toEqual([200, 200, 200]);
    expect(last.statusCode).toBe(429);
    const retryAfter = Number(last.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(last.json().error.code).toBe('rate_limited');
    expect(last.json().error.message).toMatch(/3 calls per minute/);
  });

  it('enterprise tokens default to 600 calls a minute and no quota; the operator can lift the limit', async () => {
    const token = await service.token('enterprise');
    const response = await service.base.inject({ url: '/v1/usage', headers: { authorization: `Bearer ${token.secret}` } });
    expect(response.json().data).toMatchObject({ monthly_quota: null, rate_limit_per_minute: 600 });
    expect(response.headers['x-ratelimit-limit']).toBe('600');
    const unlimited = await service.token('enterprise', { rateLimitPerMinute: null });
    const lifted = await service.base.inject({ url: '/v1/usage', headers: { authorization: `Bearer ${unlimited.secret}` } });
    expect(lifted.json().data.rate_limit_per_minute).toBeNull();
    expect(lifted.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('group B defaults to the free tier: 5,000 calls a month at 500 a minute', async () => {
    const token = await service.token('assessment');
    const response = await service.base.inject({ url: `/v1/personality_assessments/usage?token=${token.secret}` });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ monthly_quota: 5000, rate_limit_per_minute: 500, calls_this_month: 1, remaining_this_month: 4999 });
    expect(response.headers['x-ratelimit-limit']).toBe('500');
    expect(response.headers['x-ratelimit-remaining']).toBe('499');
  });

  it('a used-up monthly quota gets 429 naming the quota', async () => {
    const token = await service.token('assessment', { monthlyQuota: 2, rateLimitPerMinute: null });
    const url = `/v1/personality_assessments/usage?token=${token.secret}`;
    expect((await service.base.inject({ url })).statusCode).toBe(200);
    expect((await service.base.inject({ url })).statusCode).toBe(200);
    const refused = await service.base.inject({ url });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('quota_exceeded');
    expect(refused.json().error.message).toMatch(/Monthly quota of 2 calls/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('counts survive the meter being stopped and a new one reading the database', async () => {
    const token = await service.token('enterprise');
    for (let i = 0; i < 5; i += 1) {
      const response = await service.base.inject({ url: '/v1/usage', headers: { authorization: `Bearer ${token.secret}` } });
      expect(response.statusCode).toBe(200);
    }
    await service.ctx.meter.flush();
    const fresh = new UsageMeter(service.ctx.db);
    expect(await fresh.monthCalls(token.id, new Date().toISOString().slice(0, 7))).toBe(5);
    const year = await service.base.inject({ url: '/v1/usage', headers: { authorization: `Bearer ${token.secret}` } });
    expect(year.json().data.calls_this_year).toBe(6);
  });

  it('a read that overlaps a flush never hides counts (stale total, counts being written)', async () => {
    const token = await service.token('enterprise');
    const month = monthOf(new Date());
    const real = service.ctx.db;
    let releaseRead: () => void = () => undefined;
    const readHeld = new Promise<void>((resolve) => (releaseRead = resolve));
    let readDone: () => void = () => undefined;
    const readFinished = new Promise<void>((resolve) => (readDone = resolve));
    // The first read of the counter finishes in the database, then waits: a flush lands meanwhile.
    const slowReads: Db = {
      ...real,
      query: async <T extends Row>(sql: string, params?: readonly unknown[]) => {
        const rows = await real.query<T>(sql, params);
        if (sql.startsWith('SELECT calls FROM usage_counters')) {
          readDone();
          await readHeld;
        }
        return rows;
      },
    };
    const meter = new UsageMeter(slowReads);
    meter.record(token.id, new Date());
    const overlapping = meter.monthCalls(token.id, month);
    await readFinished;
    // The flush lands while the read is held (it does not read the counter itself).
    await meter.flush();
    releaseRead();
    expect(await overlapping).toBe(1);
    meter.record(token.id, new Date());
    expect(await meter.monthCalls(token.id, month)).toBe(2);

    // While a batch is being written, its counts still show.
    meter.record(token.id, new Date());
    const writing = meter.flush();
    expect(await meter.monthCalls(token.id, month)).toBe(3);
    await writing;
    expect(await meter.monthCalls(token.id, month)).toBe(3);
  });

  it('a flush that fails keeps its counts, and the next flush writes them', async () => {
    const token = await service.token('enterprise');
    const real = service.ctx.db;
    let failNext = true;
    const flaky: Db = {
      ...real,
      transaction: async (fn) => {
        if (failNext) {
          failNext = false;
          throw new Error('connection lost');
        }
        return real.transaction(fn);
      },
    };
    const meter = new UsageMeter(flaky);
    for (let i = 0; i < 3; i += 1) meter.record(token.id, new Date('2026-03-10T12:00:00Z'));
    await expect(meter.flush()).rejects.toThrow('connection lost');
    expect(await meter.monthCalls(token.id, '2026-03')).toBe(3);
    await meter.flush();
    meter.record(token.id, new Date('2026-03-11T12:00:00Z'));
    await meter.stop();
    expect(await new UsageMeter(real).monthCalls(token.id, '2026-03')).toBe(4);
  });

  it('the yearly total right after a month ends includes the past month\'s unwritten calls once', async () => {
    const token = await service.token('enterprise');
    const meter = new UsageMeter(service.ctx.db);
    meter.record(token.id, new Date('2026-03-31T23:59:00Z'));
    meter.record(token.id, new Date('2026-04-01T00:01:00Z'));
    expect(await meter.yearCalls(token.id, '2026-04')).toBe(2);
    await meter.flush();
    expect(await meter.yearCalls(token.id, '2026-04')).toBe(2);
    meter.record(token.id, new Date('2026-04-02T00:00:00Z'));
    expect(await meter.yearCalls(token.id, '2026-04')).toBe(3);
    // Another year's months never count.
    meter.record(token.id, new Date('2025-12-31T12:00:00Z'));
    expect(await meter.yearCalls(token.id, '2026-04')).toBe(3);
  });
});
