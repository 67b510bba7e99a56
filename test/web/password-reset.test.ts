import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_SECONDS } from '../../src/access/window-limits.ts';
import { PASSWORD_RESET_LIMITS } from '../../src/users/password-reset.ts';
import { createUser } from '../../src/users/users.ts';
import { Browser, csrfOf, logIn } from '../helpers/assessment.ts';
import { inOneWindow } from '../helpers/minute-window.ts';
import { freePort } from '../helpers/process.ts';
import { createTestService, type TestService } from '../helpers/service.ts';
import { confirmLinkIn, startSmtp, type SmtpInbox } from '../helpers/smtp.ts';

/** A forgotten password where the service sends mail (issue 26): a link mailed to the account's address. */
let smtp: SmtpInbox;
let service: TestService;
let base: string;

beforeAll(async () => {
  smtp = await startSmtp();
  base = `http://127.0.0.1:${await freePort()}`;
  service = await createTestService({ SMTP_URL: smtp.url, SMTP_FROM: 'no-reply@rapport.test', PUBLIC_BASE_URL: base });
  await createUser(service.ctx.db, { email: 'forgot@example.com', password: 'the old password here', confirmed: true });
});
afterAll(async () => {
  await service?.close();
  await smtp?.close();
});

async function askForReset(browser: Browser, email: string): Promise<LightMyRequestResponse> {
  const page = await browser.get('/password-reset');
  return browser.post('/password-reset', { csrf: csrfOf(page.body), email });
}

/** What a person sees of an answer, the per-visitor CSRF token and the echoed address taken out. */
function seen(response: LightMyRequestResponse, email: string) {
  return { status: response.statusCode, body: response.body.replace(/name="csrf" value="[^"]+"/, '').replaceAll(email, 'EMAIL') };
}

describe('a password reset by mail', () => {
  it('answers every address alike, mails only an account, and its link sets a new password once, ending the old sessions', async () => {
    const before = new Browser(service.base, base);
    expect((await logIn(before, 'forgot@example.com', 'the old password here')).statusCode).toBe(303);

    const unknown = await askForReset(new Browser(service.base, base, '10.7.0.1'), 'nobody.here@example.com');
    const known = await askForReset(new Browser(service.base, base, '10.7.1.1'), 'FORGOT@example.com');
    expect(seen(known, 'FORGOT@example.com')).toEqual(seen(unknown, 'nobody.here@example.com'));
    expect(known.body).toContain('If an account has this address, we are mailing it a link');
    const mail = await smtp.mailTo('forgot@example.com');
    expect(mail.subject).toBe('Reset your Rapport password');
    expect(smtp.countTo('nobody.here@example.com')).toBe(0);
    const link = new URL(confirmLinkIn(mail)).pathname;

    // The link shows a form; a password too short is refused and the link still works.
    const taker = new Browser(service.base, base);
    const form = await taker.get(link);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('name="password"');
    expect((await taker.post(link, { password: 'short' })).statusCode).toBe(400);
    const done = await taker.post(link, { password: 'a brand new password' });
    expect([done.statusCode, done.headers.location]).toEqual([303, '/dashboard?created=password']);
    expect((await taker.get('/dashboard')).statusCode).toBe(200);

    // Whoever held a session with the old password is logged out; the old password is gone; the link is used up.
    expect((await before.get('/dashboard')).statusCode).not.toBe(200);
    expect((await logIn(new Browser(service.base, base), 'forgot@example.com', 'the old password here')).statusCode).toBe(401);
    expect((await logIn(new Browser(service.base, base), 'forgot@example.com', 'a brand new password')).statusCode).toBe(303);
    expect((await new Browser(service.base, base).get(link)).statusCode).toBe(404);
    // A post from another site cannot use a link.
    expect((await new Browser(service.base, 'https://evil.example').post(link, { password: 'an evil new password' })).statusCode).toBe(403);
  });

  it(`is limited per address: ${PASSWORD_RESET_LIMITS.perAddressPerDay} a day`, async () => {
    await inOneWindow(DAY_SECONDS);
    const network = (n: number) => `10.8.${n}.1`;
    for (let n = 0; n < PASSWORD_RESET_LIMITS.perAddressPerDay; n += 1) expect((await askForReset(new Browser(service.base, base, network(n)), 'limited@example.com')).statusCode).toBe(200);
    const over = await askForReset(new Browser(service.base, base, network(99)), 'limited@example.com');
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
  });
});
