import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importPeople } from '../../src/people/import.ts';
import { OUTGOING_TEXT } from '../fixtures/texts.ts';
import { Browser, confirmByMail, newToken, signUpByMail, takeTest, testLinkOf } from '../helpers/assessment.ts';
import { createTestService, type TestService } from '../helpers/service.ts';
import { startSmtp, type SmtpInbox } from '../helpers/smtp.ts';

let smtp: SmtpInbox;
let service: TestService;
let owner: Browser;
let link: string;
let token: string;
let enterprise: string;
let dir: string;

function profile(email: string) {
  return service.base.inject({ url: `/v1/profiles?email=${encodeURIComponent(email)}`, headers: { authorization: `Bearer ${enterprise}` } });
}

async function deleteResult(resultPath: string) {
  const taker = new Browser(service.base);
  const page = await taker.get(resultPath);
  const deleteLink = /href="(\/r\/[^"]+\/delete\?key=[^"]+)"/.exec(page.body)?.[1]?.replace(/&amp;/g, '&') ?? '';
  expect(deleteLink).not.toBe('');
  const confirm = await taker.get(deleteLink);
  expect(confirm.statusCode).toBe(200);
  const key = /name="key" value="([^"]+)"/.exec(confirm.body)?.[1] ?? '';
  // The way back: the result page, with its key, untouched.
  const keep = /<a href="([^"]+)">Keep my result<\/a>/.exec(confirm.body)?.[1]?.replace(/&amp;/g, '&') ?? '';
  expect(keep).toBe(`${deleteLink.split('/delete')[0] ?? ''}?key=${encodeURIComponent(key)}`);
  expect((await taker.get(keep)).body).toContain('Delete my result');
  return taker.post(deleteLink.split('?')[0] ?? '', { key });
}

beforeAll(async () => {
  // Results become profiles once confirmed by mail: a real SMTP server on loopback takes the links.
  smtp = await startSmtp();
  service = await createTestService({ SMTP_URL: smtp.url, SMTP_FROM: 'no-reply@rapport.test', PUBLIC_BASE_URL: 'http://localhost' });
  owner = new Browser(service.base);
  expect((await signUpByMail(owner, smtp, 'deleter@example.com')).statusCode).toBe(303);
  link = await testLinkOf(owner);
  token = await newToken(owner);
  enterprise = (await service.token('enterprise')).secret;
  dir = mkdtempSync(path.join(tmpdir(), 'rapport-assess-'));
  const file = path.join(dir, 'people.jsonl');
  writeFileSync(file, JSON.stringify({ first_name: 'Ida', last_name: 'Imported', email: 'ida@example.org', texts: [{ type: 'various', text: OUTGOING_TEXT }] }));
  await importPeople(service.ctx, file);
});
afterAll(async () => {
  await service?.close();
  await smtp?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('deleting a result', () => {
  it('removes a person the test alone created', async () => {
    const done = await takeTest(service.base, link, { email: 'only-test@example.org', first_name: 'Olive' });
    const resultPath = String(done.headers.location);
    expect((await profile('only-test@example.org')).statusCode).toBe(404);
    expect((await confirmByMail(service.base, smtp, 'only-test@example.org')).statusCode).toBe(200);
    expect((await profile('only-test@example.org')).statusCode).toBe(200);
    const deleted = await deleteResult(resultPath);
    expect(deleted.statusCode).toBe(200);
    expect((await profile('only-test@example.org')).statusCode).toBe(404);
    expect((await service.base.inject({ url: `/v1/personality_assessments/find?token=${token}&email=only-test%40example.org` })).statusCode).toBe(404);
    expect((await owner.get(resultPath.split('?')[0] ?? '')).statusCode).toBe(404);
  });

  it('turns an imported person verified, and back to their prediction on deletion', async () => {
    const before = (await profile('ida@example.org')).json().data;
    expect(before.verified).toBe(false);
    const done = await takeTest(service.base, link, { email: 'IDA@example.org', first_name: 'Someone Else' });
    expect((await confirmByMail(service.base, smtp, 'ida@example.org')).statusCode).toBe(200);
    const during = (await profile('ida@example.org')).json().data;
    expect(during.verified).toBe(true);
    // The imported name stays: the test does not rename a known person.
    expect(during.first_name).toBe('Ida');
    await deleteResult(String(done.headers.location));
    const after = (await profile('ida@example.org')).json().data;
    expect(after.verified).toBe(false);
    expect(after.personalities).toEqual(before.personalities);
  });

  it('a wrong key deletes nothing', async () => {
    const done = await takeTest(service.base, link, { email: 'keep@example.org' });
    await confirmByMail(service.base, smtp, 'keep@example.org');
    const id = String(done.headers.location).split('?')[0] ?? '';
    const taker = new Browser(service.base);
    expect((await taker.get(`${id}/delete?key=wrong`)).statusCode).toBe(404);
    expect((await taker.post(`${id}/delete`, { key: 'wrong' })).statusCode).toBe(404);
    expect((await profile('keep@example.org')).json().data.verified).toBe(true);
  });
});

describe('an operator disabling a user', () => {
  it('ends their sessions, revokes their token and closes their test link', async () => {
    const { runVerb } = await import('../../src/operator/verbs.ts');
    const user = new Browser(service.base);
    await signUpByMail(user, smtp, 'disable-me@example.com');
    const userLink = await testLinkOf(user);
    const userToken = await newToken(user);
    await runVerb(service.ctx, 'users.disable', { user: 'disable-me@example.com' });
    expect((await user.get('/dashboard')).statusCode).toBe(303);
    expect((await service.base.inject({ url: `/v1/personality_assessments/find?token=${userToken}&email=a%40example.org` })).statusCode).toBe(401);
    expect((await user.get(userLink)).statusCode).toBe(404);
  });
});

describe('users.create for operators', () => {
  it('makes a password when none is given, shown once, and refuses a taken address', async () => {
    const { runVerb } = await import('../../src/operator/verbs.ts');
    const created = await runVerb(service.ctx, 'users.create', { email: 'made@example.com' });
    expect(created.password).toMatch(/^[\w-]{16}$/);
    const login = new Browser(service.base);
    const page = await login.get('/login');
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    expect((await login.post('/login', { csrf, email: 'made@example.com', password: created.password ?? '' })).statusCode).toBe(303);
    await expect(runVerb(service.ctx, 'users.create', { email: 'MADE@example.com', password: 'another long password' })).rejects.toThrow(/already exists/);
  });
});
