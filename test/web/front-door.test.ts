import { extractText } from 'unpdf';
import { beforeAll, describe, expect, it } from 'vitest';
import { userVerbs } from '../../src/operator/user-verbs.ts';
import { answerFields, Browser, csrfOf, logIn, signUp, takeTest, testLinkOf } from '../helpers/assessment.ts';
import { useTestService } from '../helpers/service.ts';

/**
 * Issue 26 through HTTP, so it holds where no Chromium is installed too (the browser tests,
 * *.browser.test.ts, drive the same flows by keyboard and check accessibility): the front door,
 * the test's consent, a result that is its taker's, and a dashboard that serves a team.
 */

const service = useTestService();
let owner: Browser;
let ownerLink: string;
const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

beforeAll(async () => {
  owner = new Browser(service.base);
  expect((await signUp(owner, 'door.owner@example.com')).statusCode).toBe(303);
  ownerLink = await testLinkOf(owner);
});

/** A dashboard form posted with the page's CSRF token. */
async function dashboardPost(browser: Browser, url: string, form: Record<string, string>) {
  const page = await browser.get('/dashboard');
  return browser.post(url, { csrf: csrfOf(page.body), ...form });
}

describe('the front door', () => {
  it('/ is a start page for a browser and JSON links for a client, on both hosts', async () => {
    const page = await service.base.inject({ url: '/', headers: HTML });
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers.vary).toMatch(/Accept/);
    for (const href of ['/signup', '/login', '/docs']) expect(page.body).toContain(`href="${href}"`);
    for (const accept of [undefined, '*/*', 'application/json']) {
      const json = await service.base.inject({ url: '/', headers: accept ? { accept } : {} });
      expect(json.headers['content-type']).toMatch(/^application\/json/);
      expect(json.json()).toMatchObject({ service: 'Rapport', docs: '/docs', openapi: '/openapi.json' });
    }
    const connect = await service.connect.inject({ url: '/', headers: HTML });
    expect(connect.headers['content-type']).toMatch(/^text\/html/);
    expect(connect.body).toContain('Connect API docs');
    expect(connect.body).not.toContain('href="/signup"');
  });

  it('every page of the service has the same branded 404; the API and files keep the JSON error body', async () => {
    const pages = ['/no/such/page', '/r/r_nosuchresultnosuchresult?key=wrong', '/p/pp_nosuchprofile', '/t/t_nosuchlinknosuchlink', '/s/s_nosuchsharednosuchshared'];
    for (const url of pages) {
      const response = await service.base.inject({ url, headers: HTML });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.body, url).toContain('<p class="code">Error 404</p>');
      expect(response.body, url).toMatch(/<a class="brand"/);
    }
    for (const [url, headers] of [['/no/such/page', {}], ['/v1/nothing', HTML], ['/images/nothing.png', HTML]] as const) {
      const response = await service.base.inject({ url, headers });
      expect(response.statusCode, url).toBe(404);
      expect(response.json().error.code, url).toBe('not_found');
    }
  });
});

describe('the test', () => {
  it('stores nothing without the consent box ticked, and names the organisation that asks', async () => {
    const taker = new Browser(service.base);
    const page = await taker.get(ownerLink);
    expect(page.body).toContain('the organisation that gave you this link');
    const submission = /name="submission_id" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const refused = await taker.post(ownerLink, { submission_id: submission, ...answerFields(), email: 'no.consent@example.org' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('role="alert"');
    expect(await service.ctx.db.query("SELECT id FROM assessments WHERE email_normalized = 'no.consent@example.org'")).toHaveLength(0);

    expect((await dashboardPost(owner, '/dashboard/organisation', { organisation: 'Acme <Outfitters>' })).statusCode).toBe(303);
    const named = await new Browser(service.base).get(ownerLink);
    expect(named.body).toContain('<strong>Acme &lt;Outfitters&gt;</strong> asked you to take this test.');
    expect((await dashboardPost(owner, '/dashboard/organisation', { organisation: 'x'.repeat(121) })).statusCode).toBe(400);
  });
});

describe('a result that is its taker’s', () => {
  it('a PDF, and a private link that reads the result, cannot delete it, and stops when turned off', async () => {
    const location = String((await takeTest(service.base, ownerLink, { email: 'keeper@example.org', first_name: 'Kay' })).headers.location);
    const [path, query] = location.split('?');
    const key = new URLSearchParams(query).get('key') ?? '';
    const pdf = await service.base.inject({ url: `${path}/report.pdf?key=${encodeURIComponent(key)}` });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await service.base.inject({ url: `${path}/report.pdf?key=wrong` })).statusCode).toBe(404);

    const taker = new Browser(service.base);
    expect((await taker.post(`${path}/share`, { key: 'wrong' })).statusCode).toBe(404);
    const made = await taker.post(`${path}/share`, { key });
    expect(made.statusCode).toBe(303);
    const shareId = (await service.ctx.db.query<{ share_id: string }>("SELECT share_id FROM assessments WHERE email_normalized = 'keeper@example.org'"))[0]?.share_id ?? '';
    expect(shareId).toMatch(/^s_/);
    const shared = await service.base.inject({ url: `/s/${shareId}`, headers: HTML });
    expect(shared.statusCode).toBe(200);
    expect(shared.body).toContain('A result shared with you by Kay');
    expect(shared.body).not.toContain(key);
    expect(shared.body).not.toMatch(/\/delete|\/share"/);
    // Whoever the taker gives the link reads the result, not the address or who sent the test.
    const own = await service.base.inject({ url: location, headers: HTML });
    expect(own.body).toContain('filed under keeper@example.org · sent by Acme &lt;Outfitters&gt;');
    expect(shared.body).not.toContain('keeper@example.org');
    expect(shared.body).not.toContain('Acme');
    const sharedPdf = await service.base.inject({ url: `/s/${shareId}/report.pdf` });
    expect(sharedPdf.headers['content-type']).toBe('application/pdf');
    const pdfText = (await extractText(new Uint8Array(sharedPdf.rawPayload), { mergePages: true })).text;
    expect(pdfText).toContain('Kay, your personality style');
    expect(pdfText).not.toContain('keeper@example.org');
    expect(pdfText).not.toContain('Acme');
    expect((await extractText(new Uint8Array(pdf.rawPayload), { mergePages: true })).text).toContain('keeper@example.org');
    expect((await taker.post(`${path}/share/off`, { key })).statusCode).toBe(303);
    expect((await service.base.inject({ url: `/s/${shareId}`, headers: HTML })).statusCode).toBe(404);
  });
});

describe('a dashboard that serves a team', () => {
  it('takers are searched, exported as CSV (formulas written as text) and removed; only the owner can', async () => {
    await takeTest(service.base, ownerLink, { email: 'csv.one@example.org', first_name: '=HYPERLINK("x")', last_name: 'One, Jr' });
    const second = String((await takeTest(service.base, ownerLink, { email: 'csv.two@example.org', first_name: 'Two' })).headers.location);
    const found = await owner.get('/dashboard?q=CSV.ONE');
    expect(found.body).toContain('csv.one@example.org');
    expect(found.body).not.toContain('csv.two@example.org');
    const csv = (await owner.get('/dashboard/takers.csv?q=csv.')).body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(csv[0]).toBe('taken_at,first_name,last_name,email,disc_type,archetype,hiring_role,profile_url');
    expect(csv).toHaveLength(3);
    expect(csv.find((line) => line.includes('csv.one@'))).toContain('"\'=HYPERLINK(""x"")","One, Jr",csv.one@example.org');
    expect((await new Browser(service.base).get('/dashboard/takers.csv')).statusCode).not.toBe(200);

    const stranger = new Browser(service.base);
    await signUp(stranger, 'door.stranger@example.com');
    expect((await dashboardPost(stranger, '/dashboard/takers/remove', { email: 'csv.two@example.org' })).statusCode).toBe(404);
    expect((await owner.get('/dashboard/takers/remove?email=csv.two%40example.org')).body).toContain('Remove Two?');
    const removed = await dashboardPost(owner, '/dashboard/takers/remove', { email: 'csv.two@example.org' });
    expect(removed.statusCode).toBe(303);
    expect((await owner.get('/dashboard')).body).not.toContain('csv.two@example.org');
    expect((await service.base.inject({ url: second, headers: HTML })).statusCode).toBe(404);
  });

  it('a closed hiring link takes no more tests, and only its owner can close it', async () => {
    await dashboardPost(owner, '/dashboard/hiring', { role: 'Closer', url: 'https://jobs.example.com/closer' });
    const dashboard = await owner.get('/dashboard');
    const link = /<code id="hiring-link-\d+" class="link">https?:\/\/[^/<]+(\/h\/[\w-]+)<\/code>/.exec(dashboard.body)?.[1] ?? '';
    const id = link.slice('/h/'.length);
    expect((await service.base.inject({ url: link })).statusCode).toBe(200);
    const stranger = new Browser(service.base);
    await signUp(stranger, 'door.closer@example.com');
    expect((await dashboardPost(stranger, '/dashboard/hiring/close', { id })).statusCode).toBe(404);
    expect((await service.base.inject({ url: link })).statusCode).toBe(200);
    expect((await dashboardPost(owner, '/dashboard/hiring/close', { id })).statusCode).toBe(303);
    expect((await service.base.inject({ url: link, headers: HTML })).statusCode).toBe(404);
    expect((await takeTest(service.base, link, { email: 'late@example.org' })).statusCode).toBe(404);
  });

  it('a forgotten password: without mail the page sends people to the operator, whose reset ends the sessions', async () => {
    const page = await new Browser(service.base).get('/password-reset');
    expect(page.body).toContain('rapport users reset-password');
    const user = new Browser(service.base);
    await signUp(user, 'forgetful@example.com', 'the old password here');
    expect((await user.get('/dashboard')).statusCode).toBe(200);
    const reset = (await userVerbs['users.reset-password'].run(service.ctx, { user: 'FORGETFUL@example.com' }, () => undefined)) as { email: string; password?: string };
    expect(reset.email).toBe('forgetful@example.com');
    expect(reset.password).toMatch(/^[\w-]{16}$/);
    expect((await user.get('/dashboard')).statusCode).not.toBe(200);
    expect((await logIn(new Browser(service.base), 'forgetful@example.com', 'the old password here')).statusCode).not.toBe(303);
    expect((await logIn(new Browser(service.base), 'forgetful@example.com', reset.password ?? '')).statusCode).toBe(303);
    await userVerbs['users.reset-password'].run(service.ctx, { user: 'forgetful@example.com', password: 'chosen by the operator' }, () => undefined);
    expect((await logIn(new Browser(service.base), 'forgetful@example.com', 'chosen by the operator')).statusCode).toBe(303);
    await expect(userVerbs['users.reset-password'].run(service.ctx, { user: 'nobody@example.com' }, () => undefined)).rejects.toThrow(/No user/);
  });
});
