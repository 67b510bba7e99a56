import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_SECONDS, HOUR_SECONDS } from '../../src/access/window-limits.ts';
import { buildBaseApp } from '../../src/app.ts';
import { createContext, type AppContext } from '../../src/context.ts';
import type { Db } from '../../src/db/client.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { SIGNUP_LIMITS } from '../../src/users/signup.ts';
import { createUser } from '../../src/users/users.ts';
import { askForAccount, Browser, csrfOf, followMailedLink, logIn } from '../helpers/assessment.ts';
import { inOneWindow } from '../helpers/minute-window.ts';
import { freePort } from '../helpers/process.ts';
import { useTestService, createTestService, type TestService } from '../helpers/service.ts';
import { confirmLinkIn, startSmtp, type SmtpInbox } from '../helpers/smtp.ts';

/**
 * Sign-up that reveals nothing and cannot be farmed (issue 25, finding 4: 51 accounts in 10 s
 * from one address, each with a free-tier token; a taken address answered 200, a new one 303
 * and a session).
 */

/** What a person sees of an answer, with the per-visitor CSRF token and the echoed address taken out. */
function seen(response: LightMyRequestResponse, email: string) {
  const cookies = [response.headers['set-cookie'] ?? []].flat().map((c) => c.split('=')[0]);
  const body = response.body.replace(/name="csrf" value="[^"]+"/, 'name="csrf" value=""').replaceAll(email, 'EMAIL');
  return { status: response.statusCode, location: response.headers.location, cookies, body };
}

/** Another process on the same database (PostgreSQL: its own pool too). */
async function secondProcess(service: TestService): Promise<{ ctx: AppContext; app: FastifyInstance; db: Db | null; close(): Promise<void> }> {
  const db = service.testDb.url ? await openPostgres(service.testDb.url, 2) : null;
  const ctx = createContext(service.ctx.config, db ?? service.ctx.db, createLogger('silent'), { runJobs: false });
  const app = await buildBaseApp(ctx);
  return {
    ctx,
    app,
    db,
    async close() {
      await app.close();
      await ctx.shutdown();
      await db?.close();
    },
  };
}

describe('without mail', () => {
  const service = useTestService();
  let second: Awaited<ReturnType<typeof secondProcess>>;
  beforeAll(async () => {
    second = await secondProcess(service);
  });
  afterAll(async () => {
    await second?.close();
  });

  it('a taken address and a new one get the same answer, and neither a session', async () => {
    expect((await askForAccount(new Browser(service.base, undefined, '10.9.0.1'), 'taken@example.com')).statusCode).toBe(200);
    const taken = await askForAccount(new Browser(service.base, undefined, '10.9.1.1'), 'taken@example.com', 'some other password');
    const fresh = await askForAccount(new Browser(service.base, undefined, '10.9.2.1'), 'fresh@example.com', 'some other password');
    expect(seen(taken, 'taken@example.com')).toEqual(seen(fresh, 'fresh@example.com'));
    expect(seen(fresh, 'fresh@example.com')).toMatchObject({ status: 200, location: undefined });
    expect(fresh.body).toContain('If this address can be used, your account is ready: log in with it.');
    expect(fresh.headers['set-cookie']?.toString() ?? '').not.toContain('rapport_session');
    // The new account was made: its owner logs in. The taken one kept its password.
    expect((await logIn(new Browser(service.base), 'fresh@example.com', 'some other password')).statusCode).toBe(303);
    expect((await logIn(new Browser(service.base), 'taken@example.com', 'some other password')).statusCode).toBe(401);
    expect((await logIn(new Browser(service.base), 'taken@example.com')).statusCode).toBe(303);
  });

  it(`is limited per network: ${SIGNUP_LIMITS.perNetworkPerHour} an hour, across processes`, async () => {
    await inOneWindow(HOUR_SECONDS);
    const statuses: number[] = [];
    for (let i = 0; i < SIGNUP_LIMITS.perNetworkPerHour; i += 1) {
      const browser = new Browser(i % 2 ? second.app : service.base, undefined, `172.16.5.${i + 1}`);
      statuses.push((await askForAccount(browser, `farm${i}@example.com`)).statusCode);
    }
    expect(statuses).toEqual(Array(SIGNUP_LIMITS.perNetworkPerHour).fill(200));
    for (const app of [service.base, second.app]) {
      const refused = await askForAccount(new Browser(app, undefined, '172.16.5.77'), 'farm-next@example.com');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.body).toContain('Too many accounts were asked for from your network');
    }
    expect((await logIn(new Browser(service.base), 'farm-next@example.com')).statusCode).toBe(401);
    expect((await askForAccount(new Browser(service.base, undefined, '172.16.6.1'), 'farm-next@example.com')).statusCode).toBe(200);
  });

  it(`is limited per address: ${SIGNUP_LIMITS.perAddressPerDay} a day, taken or not`, async () => {
    await inOneWindow(DAY_SECONDS);
    await createUser(service.ctx.db, { email: 'has-one@example.com', password: 'correct horse battery', confirmed: false });
    for (const email of ['has-one@example.com', 'never@example.com']) {
      for (let i = 0; i < SIGNUP_LIMITS.perAddressPerDay; i += 1) {
        expect((await askForAccount(new Browser(service.base, undefined, `10.${email.length}.${i}.1`), email)).statusCode).toBe(200);
      }
      const refused = await askForAccount(new Browser(second.app, undefined, '10.99.0.1'), email);
      expect([refused.statusCode, refused.body.includes('with this address today')]).toEqual([429, true]);
    }
  });
});

describe('with mail', () => {
  let smtp: SmtpInbox;
  let service: TestService;
  let base: string;
  beforeAll(async () => {
    smtp = await startSmtp();
    base = `http://127.0.0.1:${await freePort()}`;
    service = await createTestService({ SMTP_URL: smtp.url, SMTP_FROM: 'no-reply@rapport.test', PUBLIC_BASE_URL: base });
    await createUser(service.ctx.db, { email: 'member@example.com', password: 'correct horse battery', confirmed: true });
  });
  afterAll(async () => {
    await service?.close();
    await smtp?.close();
  });

  it('a taken address and a new one get the same answer; only the new one is mailed a link, which makes the account', async () => {
    const taken = await askForAccount(new Browser(service.base, base, '10.1.0.1'), 'member@example.com', 'a password of mine');
    const fresh = await askForAccount(new Browser(service.base, base, '10.1.1.1'), 'newcomer@example.com', 'a password of mine');
    expect(seen(taken, 'member@example.com')).toEqual(seen(fresh, 'newcomer@example.com'));
    expect(fresh.statusCode).toBe(200);
    expect(fresh.body).toContain('we are mailing it a link');
    // Nothing exists until the link is followed.
    expect((await logIn(new Browser(service.base, base), 'newcomer@example.com', 'a password of mine')).statusCode).toBe(401);

    const notice = await smtp.mailTo('member@example.com');
    expect(notice.subject).toBe('Your Rapport account');
    expect(notice.text).not.toContain('/confirm/');
    const mail = await smtp.mailTo('newcomer@example.com');
    expect(mail.subject).toBe('Finish creating your Rapport account');
    const browser = new Browser(service.base, base);
    const followed = await followMailedLink(browser, confirmLinkIn(mail));
    expect([followed.statusCode, followed.headers.location]).toEqual([303, '/dashboard']);
    const dashboard = await browser.get('/dashboard');
    expect(dashboard.statusCode).toBe(200);
    // Confirmed: the free tier's token is there to take.
    const token = await browser.post('/dashboard/token', { csrf: csrfOf(dashboard.body) });
    expect(token.body).toMatch(/<code id="new-token">rpa_/);
    expect((await logIn(new Browser(service.base, base), 'newcomer@example.com', 'a password of mine')).statusCode).toBe(303);
    // The member's account and password are untouched.
    expect((await logIn(new Browser(service.base, base), 'member@example.com', 'a password of mine')).statusCode).toBe(401);
  });

  it("someone else's sign-up for an address cannot take it: the owner's link makes the account, the other's then fails", async () => {
    await askForAccount(new Browser(service.base, base, '10.2.0.1'), 'owner@example.com', 'the squatter password');
    await askForAccount(new Browser(service.base, base, '10.2.1.1'), 'owner@example.com', 'the owner password');
    const squatter = confirmLinkIn(await smtp.mailTo('owner@example.com', 1));
    const own = confirmLinkIn(await smtp.mailTo('owner@example.com', 2));
    expect((await followMailedLink(new Browser(service.base, base), own)).statusCode).toBe(303);
    expect((await followMailedLink(new Browser(service.base, base), squatter)).statusCode).toBe(404);
    expect((await logIn(new Browser(service.base, base), 'owner@example.com', 'the owner password')).statusCode).toBe(303);
    expect((await logIn(new Browser(service.base, base), 'owner@example.com', 'the squatter password')).statusCode).toBe(401);
  });

  it('an account whose address is not confirmed gets no token until it confirms it by mail', async () => {
    // As made while the service sent no mail.
    await createUser(service.ctx.db, { email: 'early@example.com', password: 'correct horse battery', confirmed: false });
    const browser = new Browser(service.base, base);
    expect((await logIn(browser, 'early@example.com')).statusCode).toBe(303);
    const dashboard = await browser.get('/dashboard');
    expect(dashboard.body).toContain('Confirm your email address to create your API token');
    expect(dashboard.body).not.toContain('Create token');
    const refused = await browser.post('/dashboard/token', { csrf: csrfOf(dashboard.body) });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain('rpa_');

    const asked = await browser.post('/dashboard/confirm-email', { csrf: csrfOf(dashboard.body) });
    expect([asked.statusCode, asked.headers.location]).toEqual([303, '/dashboard?created=confirm-email']);
    const followed = await followMailedLink(new Browser(service.base, base), confirmLinkIn(await smtp.mailTo('early@example.com')));
    expect(followed.statusCode).toBe(200);
    expect(followed.body).toContain('Your address is confirmed');
    const after = await browser.get('/dashboard');
    const token = await browser.post('/dashboard/token', { csrf: csrfOf(after.body) });
    expect(token.body).toMatch(/<code id="new-token">rpa_/);
  });
});
