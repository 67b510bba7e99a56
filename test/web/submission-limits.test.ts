import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBaseApp } from '../../src/app.ts';
import { createContext, type AppContext } from '../../src/context.ts';
import type { Db } from '../../src/db/client.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { SUBMISSION_LIMITS } from '../../src/takers/limits.ts';
import { createUser } from '../../src/users/users.ts';
import { answerFields } from '../helpers/assessment.ts';
import { inOneWindow } from '../helpers/minute-window.ts';
import { useTestService } from '../helpers/service.ts';
import { DAY_SECONDS, HOUR_SECONDS } from '../../src/access/window-limits.ts';

/**
 * Test submissions are limited per link, per address and per taker's network (issue 25,
 * finding 1: 30 submissions in 13 s went through). The counts live in the database, so a
 * second process on it (its own context, app and, on PostgreSQL, its own pool) counts against
 * the same windows.
 */
const service = useTestService();
let second: { ctx: AppContext; app: FastifyInstance; db: Db | null };
let userId: string;
let link: string;
let hiringLink: string;
let serial = 0;

async function newHiringLink(n: number): Promise<string> {
  const id = `h_limits_limits_limits_limits_${String(n).padStart(4, '0')}`;
  await service.ctx.db.query("INSERT INTO hiring_links (id, user_id, role, url) VALUES ($1, $2, 'Role', 'https://jobs.example.com/1')", [id, userId]);
  return `/h/${id}`;
}

/**
 * Answers that differ for every n (under 625): the same answers again from one address count as
 * the same test (a page sent again after Back), so a test of the limits must not repeat them.
 */
function variedAnswers(n: number): Record<string, string> {
  const answers = answerFields(n % 5);
  Object.keys(answers).slice(0, 4).forEach((name, j) => (answers[name] = String((Math.floor(n / 5 ** j) % 5) + 1)));
  return answers;
}

/** Posts a completed test from `address` (the client's IP), as a browser on this site would. */
async function submit(app: FastifyInstance, path: string, email: string, address: string) {
  serial += 1;
  const form = new URLSearchParams({ submission_id: `limits-${serial}-${'x'.repeat(20)}`, email, consent: 'yes', ...variedAnswers(serial) });
  return app.inject({
    method: 'POST',
    url: path,
    remoteAddress: address,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost' },
    payload: form.toString(),
  });
}

async function storedFor(email: string): Promise<number> {
  return (await service.ctx.db.query('SELECT id FROM assessments WHERE email_normalized = $1', [email])).length;
}

beforeAll(async () => {
  const user = await createUser(service.ctx.db, { email: 'limits@example.com', password: 'correct horse battery', confirmed: true });
  userId = user.id;
  link = `/t/${user.testLinkId}`;
  hiringLink = await newHiringLink(1);
  // Another process on the same database: PostgreSQL gets its own pool; the embedded database can only be shared.
  const db = service.testDb.url ? await openPostgres(service.testDb.url, 2) : null;
  const ctx = createContext(service.ctx.config, db ?? service.ctx.db, createLogger('silent'), { runJobs: false });
  second = { ctx, app: await buildBaseApp(ctx), db };
});
afterAll(async () => {
  await second?.app.close();
  await second?.ctx.shutdown();
  await second?.db?.close();
});

describe('test submissions are limited', () => {
  it(`per address: ${SUBMISSION_LIMITS.perAddressPerDay} a day, counted across processes`, async () => {
    await inOneWindow(DAY_SECONDS);
    const email = 'often@example.org';
    const statuses: number[] = [];
    // From different networks and through both processes: only the address is the same.
    for (let i = 0; i < SUBMISSION_LIMITS.perAddressPerDay; i += 1) statuses.push((await submit(i % 2 ? second.app : service.base, link, email, `10.20.${i}.1`)).statusCode);
    expect(statuses).toEqual(Array(SUBMISSION_LIMITS.perAddressPerDay).fill(303));
    for (const app of [service.base, second.app]) {
      const refused = await submit(app, link, email, '10.30.0.1');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.body).toContain('limited to 5 a day');
      // The page comes back with the answers, to send again later.
      expect(refused.body).toMatch(/value="\d" required checked/);
    }
    expect(await storedFor(email)).toBe(SUBMISSION_LIMITS.perAddressPerDay);
    // Another address goes through.
    expect((await submit(service.base, link, 'other@example.org', '10.30.0.1')).statusCode).toBe(303);
  });

  it(`per taker: ${SUBMISSION_LIMITS.perNetworkPerHour} an hour from one network (an IPv4 /24, an IPv6 /64), across links and addresses`, async () => {
    await inOneWindow(HOUR_SECONDS);
    const statuses: number[] = [];
    for (let i = 0; i < SUBMISSION_LIMITS.perNetworkPerHour; i += 1) {
      const app = i % 2 ? second.app : service.base;
      statuses.push((await submit(app, i % 3 ? link : hiringLink, `taker${i}@example.org`, `192.0.2.${i + 1}`)).statusCode);
    }
    expect(statuses.every((s) => s === 303)).toBe(true);
    const refused = await submit(service.base, link, 'taker-next@example.org', '192.0.2.200');
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toContain('from your network');
    expect(await storedFor('taker-next@example.org')).toBe(0);
    // The next network along is another taker.
    expect((await submit(service.base, link, 'taker-next@example.org', '192.0.3.1')).statusCode).toBe(303);
    // IPv6: one /64 is one taker, whatever the last 64 bits.
    for (let i = 0; i < SUBMISSION_LIMITS.perNetworkPerHour; i += 1) {
      expect((await submit(service.base, link, `six${i}@example.org`, `2001:db8:1:2::${(i + 1).toString(16)}`)).statusCode).toBe(303);
    }
    expect((await submit(service.base, link, 'six-next@example.org', '2001:db8:1:2:ffff::9')).statusCode).toBe(429);
    expect((await submit(service.base, link, 'six-next@example.org', '2001:db8:1:3::1')).statusCode).toBe(303);
  });

  it(`per link: ${SUBMISSION_LIMITS.perLinkPerHour} an hour, from any number of takers and addresses`, { timeout: 120_000 }, async () => {
    await inOneWindow(HOUR_SECONDS, 60_000);
    const busy = await newHiringLink(2);
    const statuses: number[] = [];
    for (let i = 0; i < SUBMISSION_LIMITS.perLinkPerHour; i += 1) {
      const app = i % 2 ? second.app : service.base;
      statuses.push((await submit(app, busy, `link${i}@example.org`, `198.51.${Math.floor(i / 10)}.${(i % 10) + 1}`)).statusCode);
    }
    expect(statuses.every((s) => s === 303)).toBe(true);
    const refused = await submit(service.base, busy, 'link-next@example.org', '203.0.113.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toContain('This test link has taken as many tests as it may this hour');
    const onLink = await service.ctx.db.query("SELECT id FROM assessments WHERE hiring_link_id = 'h_limits_limits_limits_limits_0002'");
    expect(onLink).toHaveLength(SUBMISSION_LIMITS.perLinkPerHour);
    // The user's other link is another link.
    expect((await submit(service.base, link, 'link-next@example.org', '203.0.113.1')).statusCode).toBe(303);
  });

  it('a resent form of the same attempt counts once', async () => {
    await inOneWindow(DAY_SECONDS);
    const form = new URLSearchParams({ submission_id: `limits-resent-${'y'.repeat(20)}`, email: 'resent@example.org', consent: 'yes', ...answerFields(1) }).toString();
    const send = () => service.base.inject({ method: 'POST', url: link, remoteAddress: '100.64.9.9', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost' }, payload: form });
    for (let i = 0; i < SUBMISSION_LIMITS.perAddressPerDay + 2; i += 1) expect((await send()).statusCode).toBe(303);
    expect(await storedFor('resent@example.org')).toBe(1);
    // Four more attempts of that address still go through.
    for (let i = 1; i < SUBMISSION_LIMITS.perAddressPerDay; i += 1) expect((await submit(service.base, link, 'resent@example.org', '100.64.9.9')).statusCode).toBe(303);
  });
});
