import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importPeople } from '../../src/people/import.ts';
import { createUser } from '../../src/users/users.ts';
import { OUTGOING_TEXT } from '../fixtures/texts.ts';
import { answerFields, Browser, logIn, takeTest } from '../helpers/assessment.ts';
import { freePort } from '../helpers/process.ts';
import { createTestService, type TestService } from '../helpers/service.ts';
import { confirmLinkIn, startSmtp, type SmtpInbox } from '../helpers/smtp.ts';

/**
 * Verified means confirmed (issue 25, finding 1): a test result claims no stored person until
 * the taker confirms the address through the link mailed to it. A real SMTP server on loopback
 * receives the mail; the link in it is followed over HTTP, exactly as mailed.
 */
let smtp: SmtpInbox;
let service: TestService;
let base: string;
let owner: Browser;
let link: string;
let ownerToken: string;
let enterprise: string;
let org: string;
let dir: string;
const logs: string[] = [];

const IDA = 'ida@example.org';

function profile(email: string) {
  return service.base.inject({ url: `/v1/profiles?email=${encodeURIComponent(email)}`, headers: { authorization: `Bearer ${enterprise}` } });
}

function connectSearch(email: string) {
  return service.connect.inject({ method: 'POST', url: '/v1/profiles', headers: { 'x-org-token': org, 'content-type': 'application/json' }, payload: { email } });
}

function find(email: string) {
  return service.base.inject({ url: `/v1/personality_assessments/find?token=${ownerToken}&email=${encodeURIComponent(email)}` });
}

/** The estimate a stored person's profile holds now. */
async function storedEstimate(email: string): Promise<unknown> {
  return (await service.ctx.db.query<{ estimate: unknown }>('SELECT estimate FROM people WHERE email_normalized = $1', [email]))[0]?.estimate;
}

async function resultEstimate(resultPath: string): Promise<unknown> {
  const id = resultPath.split('?')[0]?.split('/').pop() ?? '';
  return (await service.ctx.db.query<{ estimate: unknown }>('SELECT estimate FROM assessments WHERE id = $1', [id]))[0]?.estimate;
}

/** Follows a mailed link over HTTP as a browser would: GET shows the Confirm button, POST presses it. */
async function pressConfirm(url: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' }, body: 'confirm=yes', redirect: 'manual' });
}

beforeAll(async () => {
  smtp = await startSmtp();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  service = await createTestService({ SMTP_URL: smtp.url, SMTP_FROM: 'Rapport <no-reply@rapport.test>', PUBLIC_BASE_URL: base, LOG_LEVEL: 'info' }, { logs: sink });
  await service.base.listen({ host: '127.0.0.1', port });
  const user = await createUser(service.ctx.db, { email: 'owner@example.com', password: 'correct horse battery', confirmed: true });
  link = `/t/${user.testLinkId}`;
  owner = new Browser(service.base, base);
  expect((await logIn(owner, 'owner@example.com')).statusCode).toBe(303);
  const dashboard = await owner.get('/dashboard');
  const created = await owner.post('/dashboard/token', { csrf: /name="csrf" value="([^"]+)"/.exec(dashboard.body)?.[1] ?? '' });
  ownerToken = /<code id="new-token">([^<]+)<\/code>/.exec(created.body)?.[1] ?? '';
  expect(ownerToken).toMatch(/^rpa_/);
  enterprise = (await service.token('enterprise')).secret;
  org = (await service.token('connect')).secret;
  dir = mkdtempSync(path.join(tmpdir(), 'rapport-confirm-'));
  const file = path.join(dir, 'people.jsonl');
  writeFileSync(file, `${JSON.stringify({ first_name: 'Ida', last_name: 'Imported', email: IDA, title: 'Head of Finance', company_name: 'Northwind Ledger', texts: [{ type: 'various', text: OUTGOING_TEXT }] })}\n`);
  await importPeople(service.ctx, file);
});
afterAll(async () => {
  await service?.close();
  await smtp?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a result for a stored person, not confirmed', () => {
  let resultPath: string;

  it("changes nothing of theirs in group A, Connect or on the result page, and is its user's at once", async () => {
    const before = (await profile(IDA)).json().data;
    expect(before.verified).toBe(false);
    // The attack of the finding: someone's public test link, the person's address, no names.
    const done = await takeTest(service.base, `${link}?api_user_email=${encodeURIComponent(IDA)}`, { api_user_email: IDA, first_name: '', last_name: '', ...answerFields(2) }, base);
    expect(done.statusCode).toBe(303);
    resultPath = String(done.headers.location);

    const after = (await profile(IDA)).json().data;
    expect(after.verified).toBe(false);
    expect(after.personalities).toEqual(before.personalities);
    expect(after.confidence).toBe(before.confidence);
    expect((await connectSearch(IDA)).json().info.has_assessment).toBe(false);

    // The result page shows the answers' result and nothing of the stored person.
    const page = await owner.get(resultPath);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toMatch(/\/p\/pp_/);
    for (const stored of ['Ida', 'Imported', 'Head of Finance', 'Northwind']) expect(page.body).not.toContain(stored);
    expect(page.body).toContain('Confirm your address to make this your profile');

    // The inviting user has it at once, with the names given (none), not the stored person's.
    const found = await find(IDA);
    expect(found.statusCode).toBe(200);
    expect(found.json()).toMatchObject({ first_name: '', last_name: '', photo_url: null });
    const dashboard = await owner.get('/dashboard');
    expect(dashboard.body).toContain(IDA);
    expect(dashboard.body).toContain('Not confirmed yet');
    expect(dashboard.body).not.toMatch(/\/p\/pp_/);
  });

  it('mails the address a link whose secret is stored only as a hash', async () => {
    const mail = await smtp.mailTo(IDA);
    expect(mail.from).toBe('no-reply@rapport.test');
    expect(mail.subject).toBe('Confirm your personality test result');
    const url = confirmLinkIn(mail);
    expect(url.startsWith(`${base}/confirm/`)).toBe(true);
    const secret = url.split('/').pop() ?? '';
    const rows = await service.ctx.db.query<{ token_hash: string }>('SELECT token_hash FROM email_confirmations WHERE email_normalized = $1', [IDA]);
    expect(rows.map((r) => r.token_hash)).toEqual([createHash('sha256').update(secret).digest('hex')]);
    const everything = JSON.stringify(await service.ctx.db.query('SELECT * FROM email_confirmations'));
    expect(everything).not.toContain(secret);
  });

  it('following the link over HTTP (opening it, then Confirm) makes it the verified profile, once', async () => {
    const url = confirmLinkIn(await smtp.mailTo(IDA));
    // Opening the link (a mail scanner does) only asks.
    const opened = await fetch(url);
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain('Make this result your profile?');
    expect((await profile(IDA)).json().data.verified).toBe(false);

    const confirmed = await pressConfirm(url);
    expect(confirmed.status).toBe(200);
    const publicId = (await profile(IDA)).json().data.url.split('/p/')[1];
    expect(await confirmed.text()).toContain(`/p/${publicId}`);

    const data = (await profile(IDA)).json().data;
    expect(data.verified).toBe(true);
    // The imported person keeps their row and names; the personality is the test's.
    expect(data.first_name).toBe('Ida');
    expect(await storedEstimate(IDA)).toEqual(await resultEstimate(resultPath));
    const connect = (await connectSearch(IDA)).json().info;
    expect(connect.has_assessment).toBe(true);
    expect(connect.disc_scores.confidence).toBeGreaterThanOrEqual(90);
    expect((await owner.get(resultPath)).body).toContain(`/p/${publicId}`);
    // The profile page says it comes from the test, and shows what the test measured.
    const page = await owner.get(`/p/${publicId}`);
    expect(page.body).toContain('from the personality test');
    expect(page.body).toContain('<h2>Measured by the test</h2>');
    expect(page.body).toMatch(/Thoroughness <small>\(care, order, follow-through: the test&#39;s conscientiousness scale\)<\/small><\/span><strong>[a-z ]+<\/strong>/);

    // Used once: the same link again is refused, on opening and on pressing.
    expect((await fetch(url)).status).toBe(404);
    expect((await pressConfirm(url)).status).toBe(404);
  });

  it('deleting the confirmed result puts back what the person held before', async () => {
    const taker = new Browser(service.base, base);
    const [page, key] = resultPath.split('?key=');
    expect((await taker.post(`${page}/delete`, { key: decodeURIComponent(key ?? '') })).statusCode).toBe(200);
    const data = (await profile(IDA)).json().data;
    expect(data.verified).toBe(false);
    expect(await storedEstimate(IDA)).not.toEqual(await resultEstimate(resultPath));
    expect((await connectSearch(IDA)).json().info.has_assessment).toBe(false);
  });
});

describe('links and replacement', () => {
  it('an expired link confirms nothing', async () => {
    const email = 'late@example.org';
    const done = await takeTest(service.base, link, { email }, base);
    expect(done.statusCode).toBe(303);
    const url = confirmLinkIn(await smtp.mailTo(email));
    await service.ctx.db.query("UPDATE email_confirmations SET expires_at = now() - interval '1 minute' WHERE email_normalized = $1", [email]);
    expect((await fetch(url)).status).toBe(404);
    expect((await pressConfirm(url)).status).toBe(404);
    expect((await profile(email)).statusCode).toBe(404);
    // The result page no longer says a link is on its way.
    const page = await owner.get(String(done.headers.location));
    expect(page.body).toContain('the link to confirm your address has expired');
    expect(page.body).not.toContain('We are mailing a link');
  });

  it('a confirmed result is replaced only by a newer confirmed one', async () => {
    const email = 'nora@example.org';
    const older = String((await takeTest(service.base, link, { email, ...answerFields(0) }, base)).headers.location);
    const newer = String((await takeTest(service.base, link, { email, ...answerFields(2) }, base)).headers.location);
    expect(await resultEstimate(older)).not.toEqual(await resultEstimate(newer));
    const olderLink = confirmLinkIn(await smtp.mailTo(email, 1));
    const newerLink = confirmLinkIn(await smtp.mailTo(email, 2));

    expect((await pressConfirm(newerLink)).status).toBe(200);
    expect(await storedEstimate(email)).toEqual(await resultEstimate(newer));
    // Confirming the older result afterwards does not put it back over the newer one.
    expect((await pressConfirm(olderLink)).status).toBe(200);
    expect(await storedEstimate(email)).toEqual(await resultEstimate(newer));
    // A later result that is not confirmed replaces nothing.
    const unconfirmed = String((await takeTest(service.base, link, { email, ...answerFields(4) }, base)).headers.location);
    expect(await resultEstimate(unconfirmed)).not.toEqual(await resultEstimate(newer));
    expect(await storedEstimate(email)).toEqual(await resultEstimate(newer));
    expect((await profile(email)).json().data.verified).toBe(true);
  });
});

describe('logs', () => {
  it('hold no confirmation secret and no address of a taker', () => {
    const all = logs.join('');
    expect(all).toContain('/confirm/');
    for (const mail of smtp.mails) {
      const match = /\/confirm\/([\w-]+)/.exec(mail.text);
      if (match?.[1]) expect(all).not.toContain(match[1]);
    }
    expect(all).not.toMatch(/ida@example\.org|nora@example\.org/i);
  });
});
