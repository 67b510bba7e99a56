import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setTokenLimits } from '../../src/access/tokens.ts';
import { createTestService, type TestService } from '../helpers/service.ts';
import { answerFields, askForAccount, Browser, csrfOf, newToken, signUp, takeTest, testLinkOf } from '../helpers/assessment.ts';
import { inOneMonth, inOneRateWindow } from '../helpers/minute-window.ts';

const logs: string[] = [];
let service: TestService;
let owner: Browser;
let other: Browser;
let ownerToken: string;
let otherToken: string;
let ownerLink: string;
const PASSWORD = 'correct horse battery';

function find(token: string, query: string) {
  return service.base.inject({ method: 'GET', url: `/v1/personality_assessments/find?token=${encodeURIComponent(token)}&${query}` });
}

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  service = await createTestService({ LOG_LEVEL: 'info' }, { logs: sink });
  owner = new Browser(service.base);
  other = new Browser(service.base);
  expect((await signUp(owner, 'Owner@Example.com', PASSWORD)).statusCode).toBe(303);
  expect((await signUp(other, 'other@example.com', PASSWORD)).statusCode).toBe(303);
  ownerToken = await newToken(owner);
  otherToken = await newToken(other);
  ownerLink = await testLinkOf(owner);
});
afterAll(async () => {
  await service?.close();
});

// Quotas and counts are kept per UTC month: no test may straddle the first of a month.
beforeEach(() => inOneMonth());

describe('the test page', () => {
  it('asks for the email only when api_user_email is absent, and carries it when given', async () => {
    const plain = await owner.get(ownerLink);
    expect(plain.statusCode).toBe(200);
    expect(plain.body).toContain('id="email"');
    expect(plain.body).toMatch(/<fieldset class="item"[^>]*>\s*<legend>/);
    expect(plain.body).toContain('type="radio"');
    const withEmail = await owner.get(`${ownerLink}?api_user_email=${encodeURIComponent('ann+x@example.org')}`);
    expect(withEmail.body).not.toContain('id="email"');
    expect(withEmail.body).toContain('name="api_user_email" value="ann+x@example.org"');
    // The first screen says which address the result is filed under, and who sees it.
    expect(withEmail.body).toMatch(/Your result is filed under <strong class="filed-under">ann\+x@example\.org<\/strong>/);
    expect(withEmail.body).toContain('sees your name, email and personality result');
    // Without mail a result never becomes the person's profile (A1, Connect): the consent says so.
    expect(withEmail.body).toContain('Nobody else on this Rapport service sees it: it does not become your profile here.');
    expect(withEmail.body).not.toMatch(/<script src="http/);
  });

  it('no page may be framed by another (the policy is a header: browsers ignore frame-ancestors in a meta tag)', async () => {
    const stranger = new Browser(service.base);
    for (const page of [await owner.get(ownerLink), await owner.get('/dashboard'), await stranger.get('/login'), await stranger.get('/t/t_nosuchlinknosuchlinknosuchlink')]) {
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(page.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('an unknown link is a 404 page', async () => {
    const response = await owner.get('/t/t_doesnotexistdoesnotexistdoesnotexist');
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('text/html');
  });

  it('serves its script from this service', async () => {
    const response = await owner.get('/assets/test.js');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('localStorage');
  });

  it('names its icon, served from this service, and sends /favicon.ico there too', async () => {
    expect((await owner.get(ownerLink)).body).toContain('<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">');
    const icon = await owner.get('/assets/favicon.svg');
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    const ico = await owner.get('/favicon.ico');
    expect(ico.statusCode).toBe(302);
    expect(ico.headers.location).toBe('/assets/favicon.svg');
  });
});

describe('taking the test', () => {
  let resultPath: string;

  it('scores, stores and shows the result with a delete link, and, without mail, no profile link', async () => {
    const response = await takeTest(service.base, `${ownerLink}?api_user_email=${encodeURIComponent('Tess@Example.org')}`, {
      api_user_email: 'Tess@Example.org',
      first_name: 'Tess <b>',
      last_name: 'Taker',
    });
    expect(response.statusCode).toBe(303);
    resultPath = String(response.headers.location);
    expect(resultPath).toMatch(/^\/r\/[\w-]{32,}\?key=/);
    const page = await owner.get(resultPath);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Tess &lt;b&gt;');
    expect(page.body).not.toContain('Tess <b>');
    expect(page.body).toMatch(/\/images\/disc-map\/[-0-9._]+\.svg/);
    expect(page.body).not.toMatch(/\/p\/pp_/);
    expect(page.body).toContain('This result stays with whoever sent you the test');
    expect(page.body).toContain('This Rapport service sends no mail');
    expect(page.body).toContain('Delete my result');
    // Written to the taker: the type explained, strengths and blind spots, and the bars' meanings.
    expect(page.body).toContain('Your strengths');
    expect(page.body).toContain('Your blind spots');
    expect(page.body).toContain('What drains you');
    expect(page.body).toMatch(/Thoroughness/);
    // Without the key, or with a wrong one, the result does not open at all.
    const bare = await owner.get(resultPath.split('?')[0] ?? '');
    expect(bare.statusCode).toBe(404);
    expect(bare.body).not.toContain('Your strengths');
    const wrong = await owner.get(`${resultPath.split('?')[0] ?? ''}?key=wrong`);
    expect(wrong.statusCode).toBe(404);
    expect(wrong.body).toBe(bare.body);
  });

  it('without mail the result stays with its user: group A does not know the person, and the dashboard says so', async () => {
    const enterprise = await service.token('enterprise');
    const response = await service.base.inject({ url: '/v1/profiles?email=tess@example.org', headers: { authorization: `Bearer ${enterprise.secret}` } });
    expect(response.statusCode).toBe(404);
    const dashboard = await owner.get('/dashboard');
    expect(dashboard.body).toMatch(/tess@example\.org/i);
    expect(dashboard.body).toContain('This Rapport service sends no mail, so results stay with you');
    expect(dashboard.body).toContain('Yours only');
    expect(dashboard.body).not.toMatch(/\/p\/pp_/);
  });

  it('the owner finds the person through /find (B1), another user gets the 404 of an unknown email', async () => {
    const found = await find(ownerToken, 'email=TESS%40example.org');
    expect(found.statusCode).toBe(200);
    const body = found.json();
    expect(body.first_name).toBe('Tess <b>');
    expect(typeof body.personalities.enneagram_type).toBe('number');
    expect(body.content.motivations.length).toBeGreaterThan(0);
    expect(body.content.drains.length).toBeGreaterThan(0);
    expect(body).not.toHaveProperty('hiring');
    const stranger = await find(otherToken, 'email=tess%40example.org');
    const unknown = await find(otherToken, 'email=nobody%40example.org');
    expect(stranger.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(stranger.json().error.message).toBe(unknown.json().error.message);
    const malformed = await find(ownerToken, 'email=tess');
    expect([malformed.statusCode, malformed.json().error.code]).toEqual([400, 'bad_request']);
    expect(malformed.json().error.message).toMatch(/not a valid email address/);
  });

  it('a second submission of the same attempt gives the same result, not a second one', async () => {
    const taker = new Browser(service.base);
    const page = await taker.get(ownerLink);
    const submission = /name="submission_id" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const fields = { submission_id: submission, consent: 'yes', ...answerFields(1), email: 'twice@example.org' };
    const first = await taker.post(ownerLink, fields);
    const second = await taker.post(ownerLink, fields);
    expect(first.statusCode).toBe(303);
    expect(second.statusCode).toBe(303);
    expect(String(second.headers.location).split('?')[0]).toBe(String(first.headers.location).split('?')[0]);
    const dashboard = await owner.get('/dashboard');
    expect(dashboard.body.match(/<td data-label="Email" class="email">twice@example\.org<\/td>/g)).toHaveLength(1);
  });

  it('refuses tampered answers with a 400 page naming the problem', async () => {
    const unknown = await takeTest(service.base, ownerLink, { email: 'x1@example.org', 'q.not-an-item': '3' });
    expect(unknown.statusCode).toBe(400);
    const outOfRange = await takeTest(service.base, ownerLink, { email: 'x2@example.org', [Object.keys(answerFields())[0] ?? '']: '9' });
    expect(outOfRange.statusCode).toBe(400);
    const straight = await takeTest(service.base, ownerLink, { email: 'x3@example.org', ...Object.fromEntries(Object.keys(answerFields()).map((k) => [k, '4'])) });
    expect(straight.statusCode).toBe(400);
    expect(straight.body).toContain('same answer');
    for (const email of ['x1', 'x2', 'x3']) expect((await find(ownerToken, `email=${email}%40example.org`)).statusCode).toBe(404);
  });

  it('ignores a forged user id: the result belongs to the link\'s user', async () => {
    const response = await takeTest(service.base, ownerLink, { email: 'forged@example.org', user_id: 'usr_other', userId: 'usr_other' });
    expect(response.statusCode).toBe(303);
    expect((await find(ownerToken, 'email=forged%40example.org')).statusCode).toBe(200);
    expect((await find(otherToken, 'email=forged%40example.org')).statusCode).toBe(404);
  });

  it('a test from another site is refused', async () => {
    const response = await takeTest(service.base, ownerLink, { email: 'csrf@example.org' });
    expect(response.statusCode).toBe(303);
    const taker = new Browser(service.base, 'https://evil.example');
    const refused = await taker.post(ownerLink, { submission_id: 'abcdefghijklmnopqrstuv', consent: 'yes', ...answerFields(), email: 'evil@example.org' });
    expect(refused.statusCode).toBe(403);
  });
});

describe('hiring links', () => {
  /** The owner makes a hiring link for this role; someone takes the test through it. */
  async function hiredThroughLink(role: string, email: string) {
    const dash = await owner.get('/dashboard');
    const created = await owner.post('/dashboard/hiring', { csrf: csrfOf(dash.body), role, url: 'https://jobs.example.com/42?team=a|b#apply#now' });
    expect(created.statusCode).toBe(303);
    const listed = await owner.get(String(created.headers.location));
    const link = /<code id="hiring-link-\d+" class="link">https?:\/\/[^/<]+(\/h\/[\w-]+)<\/code>/.exec(listed.body)?.[1] ?? '';
    expect(link).toMatch(/^\/h\//);
    expect((await takeTest(service.base, link, { email, first_name: 'Hiro' })).statusCode).toBe(303);
    return listed;
  }

  it('a test through a hiring link gives a hiring entry, shown only when asked for', async () => {
    const listed = await hiredThroughLink('Account <Manager>', 'hire@example.org');
    expect(listed.body).toContain('Account &lt;Manager&gt;');
    expect(listed.body).not.toContain('Account <Manager>');
    const withHiring = await find(ownerToken, 'email=hire%40example.org&options[hiring]=true');
    // Stored %-encoded, so it is the URI the response's schema promises (| and a second # are not).
    expect(withHiring.json().hiring).toEqual([{ url: 'https://jobs.example.com/42?team=a%7Cb#apply%23now', role: 'Account <Manager>' }]);
    expect((await find(ownerToken, 'email=hire%40example.org')).json()).not.toHaveProperty('hiring');
    expect((await find(otherToken, 'email=hire%40example.org&options[hiring]=true')).statusCode).toBe(404);
  });

  it('options[hiring] takes 1 and 0 as well as true and false; any other value is a 400 that says which it takes', async () => {
    await hiredThroughLink('Support lead', 'hire-flag@example.org');
    const hiringOf = async (value: string) => (await find(ownerToken, `email=hire-flag%40example.org&options[hiring]=${value}`)).json().hiring;
    for (const on of ['1', 'true', 'TRUE']) expect(await hiringOf(on)).toEqual([expect.objectContaining({ role: 'Support lead' })]);
    for (const off of ['0', 'false', 'False']) expect(await hiringOf(off)).toBeUndefined();
    for (const bad of ['yes', '2', '', 'constructor']) {
      const refused = await find(ownerToken, `email=hire-flag%40example.org&options[hiring]=${bad}`);
      expect(refused.statusCode, bad).toBe(400);
      expect(refused.json().error).toMatchObject({ code: 'bad_request', message: 'The query parameter "options[hiring]" must be true, false, 1 or 0.' });
    }
    const twice = await find(ownerToken, 'email=hire-flag%40example.org&options[hiring]=true&options[hiring]=false');
    expect([twice.statusCode, twice.json().error.message]).toEqual([400, 'The query parameter "options[hiring]" was given more than once: give it once, true, false, 1 or 0.']);
  });

  it('refuses a job posting URL that is not http(s)', async () => {
    const dash = await owner.get('/dashboard');
    const response = await owner.post('/dashboard/hiring', { csrf: csrfOf(dash.body), role: 'X', url: 'javascript:alert(1)' });
    expect(response.statusCode).toBe(400);
  });
});

describe('/find errors and limits', () => {
  it('a missing email is a 400 naming it', async () => {
    const response = await find(ownerToken, '');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('"email"');
  });

  it('an over-quota token gets 429 with Retry-After', async () => {
    const other2 = new Browser(service.base);
    await signUp(other2, 'quota@example.com');
    const token = await newToken(other2);
    const row = await service.ctx.db.query<{ id: string }>('SELECT id FROM api_tokens WHERE user_id IS NOT NULL AND token_prefix = $1', [token.slice(0, 8)]);
    await setTokenLimits(service.ctx.db, row[0]?.id ?? '', { monthlyQuota: 1 });
    service.ctx.auth.forget(row[0]?.id ?? '');
    expect((await find(token, 'email=a%40example.org')).statusCode).toBe(404);
    const refused = await find(token, 'email=a%40example.org');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().error.message).toContain('Monthly quota of 1');
  });
});

describe('tokens on the dashboard', () => {
  it('rotating revokes the old token at once, keeps the month\'s count, and shows the new one once', async () => {
    const user = new Browser(service.base);
    await signUp(user, 'rotate@example.com');
    // No box to tick before there is a token to revoke; then there is.
    expect((await user.get('/dashboard')).body).not.toContain('name="confirm"');
    const first = await newToken(user);
    expect((await user.get('/dashboard')).body).toContain('name="confirm" value="rotate" required');
    expect((await find(first, 'email=a%40example.org')).statusCode).toBe(404);
    const second = await newToken(user);
    expect(second).not.toBe(first);
    expect((await find(first, 'email=a%40example.org')).statusCode).toBe(401);
    expect((await find(second, 'email=a%40example.org')).statusCode).toBe(404);
    const usage = await service.base.inject({ url: `/v1/personality_assessments/usage?token=${second}` });
    expect(usage.json().data.calls_this_month).toBeGreaterThanOrEqual(2);
    const page = await user.get('/dashboard');
    expect(page.body).not.toContain(second);
    expect(page.body).toContain(second.slice(0, 8));

    // Without the box ticked, the live token is kept.
    const unconfirmed = await user.post('/dashboard/token', { csrf: csrfOf(page.body) });
    expect(unconfirmed.statusCode).toBe(400);
    expect(unconfirmed.body).toContain('Tick the box to rotate');
    expect(unconfirmed.body).not.toMatch(/<code id="new-token">/);
    expect((await find(second, 'email=a%40example.org')).statusCode).toBe(404);
  });
});

describe('accounts', () => {
  it('forms without the CSRF token or from another origin are refused', async () => {
    const page = await owner.get('/dashboard');
    expect((await owner.post('/dashboard/token', {})).statusCode).toBe(403);
    expect((await owner.post('/dashboard/token', { csrf: csrfOf(page.body) }, { origin: 'https://evil.example' })).statusCode).toBe(403);
    const stranger = new Browser(service.base);
    await stranger.get('/login');
    expect((await stranger.post('/login', { csrf: 'forged', email: 'owner@example.com', password: PASSWORD })).statusCode).toBe(403);
  });

  it('log-in failures say the same for an unknown email and a wrong password', async () => {
    const a = new Browser(service.base);
    const page = await a.get('/login');
    const wrong = await a.post('/login', { csrf: csrfOf(page.body), email: 'owner@example.com', password: 'not the password' });
    const unknown = await a.post('/login', { csrf: csrfOf(page.body), email: 'ghost@example.com', password: 'not the password' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    const message = (html: string) => /role="alert">([^<]*)</.exec(html)?.[1];
    expect(message(wrong.body)).toBe(message(unknown.body));
    const ok = await a.post('/login', { csrf: csrfOf(page.body), email: 'OWNER@example.com', password: PASSWORD });
    expect(ok.statusCode).toBe(303);
    expect(ok.headers['set-cookie']).toEqual(expect.arrayContaining([expect.stringMatching(/^rapport_session=.*HttpOnly; SameSite=Lax/)]));
  });

  it('log-in attempts are limited per account', async () => {
    const a = new Browser(service.base);
    const page = await a.get('/login');
    const statuses: number[] = [];
    await inOneRateWindow();
    for (let i = 0; i < 7; i += 1) statuses.push((await a.post('/login', { csrf: csrfOf(page.body), email: 'limited@example.com', password: 'wrong password' })).statusCode);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses[6]).toBe(429);
  });

  it('a signed-up address signing up again learns nothing and gets no session', async () => {
    const again = new Browser(service.base);
    const response = await askForAccount(again, 'owner@example.com', 'another password here');
    expect(response.statusCode).toBe(200);
    expect(again.cookies.has('rapport_session')).toBe(false);
  });

  it('one user\'s session shows none of another user\'s data; a forged cookie shows nothing', async () => {
    const page = await other.get('/dashboard');
    expect(page.body).not.toContain('tess@example.org');
    expect(page.body).not.toContain(ownerLink);
    const forged = new Browser(service.base);
    forged.cookies.set('rapport_session', `${owner.cookies.get('rapport_session')?.split('.')[0] ?? ''}.AAAA`);
    expect((await forged.get('/dashboard')).statusCode).toBe(303);
  });

  it('logging out ends the session on the server', async () => {
    const user = new Browser(service.base);
    await signUp(user, 'leaver@example.com');
    const cookie = user.cookies.get('rapport_session') ?? '';
    const page = await user.get('/dashboard');
    expect((await user.post('/logout', { csrf: csrfOf(page.body) })).statusCode).toBe(303);
    const replay = new Browser(service.base);
    replay.cookies.set('rapport_session', cookie);
    expect((await replay.get('/dashboard')).statusCode).toBe(303);
  });
});

describe('sign-up switched off', () => {
  it('RAPPORT_SIGNUP=false closes /signup', async () => {
    const closed = await createTestService({ RAPPORT_SIGNUP: 'false' });
    try {
      const b = new Browser(closed.base);
      expect((await b.get('/signup')).statusCode).toBe(403);
      const login = await b.get('/login');
      expect((await b.post('/signup', { csrf: csrfOf(login.body), email: 'new@example.com', password: PASSWORD })).statusCode).toBe(403);
    } finally {
      await closed.close();
    }
  });
});

describe('logs', () => {
  it('hold no passwords, session ids, tokens or emails', async () => {
    const all = logs.join('');
    expect(all).toContain('"url"');
    expect(all).not.toContain(PASSWORD);
    expect(all).not.toContain(ownerToken);
    expect(all).not.toContain(owner.cookies.get('rapport_session')?.split('.')[0] ?? 'none');
    expect(all).not.toMatch(/tess@example\.org/i);
    expect(all).not.toContain(ownerLink.slice(3));
  });
});
