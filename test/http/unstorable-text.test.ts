import fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeTexts } from '../../src/people/analyze.ts';
import { upsertPerson } from '../../src/people/repository.ts';
import { validatePersonRecord } from '../../src/people/validate.ts';
import { OUTGOING_TEXT, RESERVED_TEXT } from '../fixtures/texts.ts';
import { answerFields, Browser, signUp, testLinkOf } from '../helpers/assessment.ts';
import { useTestService } from '../helpers/service.ts';

/**
 * No 500 from input (issue 25, finding 5): a NUL, half a surrogate pair, or other text the
 * database may refuse, sent in any string field of any route (JSON and form bodies, multipart,
 * query strings, paths), is the caller's 4xx: where the value is read, a 400 naming the field.
 * Before, NUL or a lone surrogate in Connect's first_name, email or text_sample, and %00 in the
 * test form's email, reached PostgreSQL and came back as 500 (22P05, 22P02, 22021). Runs on the
 * embedded database, and on PostgreSQL when DATABASE_URL is set, as the whole suite does.
 */

const service = useTestService();
let bearer: Record<string, string>;
let org: Record<string, string>;
let assessmentToken: string;
let testLink: string;
let searches: [string, string];

async function addPerson(record: Record<string, unknown>): Promise<void> {
  const validated = validatePersonRecord(record);
  if (!validated.ok) throw new Error(validated.reason);
  await upsertPerson(service.ctx.db, validated.input, { source: 'import', analyze: (texts) => analyzeTexts(service.ctx.model, texts) });
}

beforeAll(async () => {
  bearer = { authorization: `Bearer ${(await service.token('enterprise')).secret}` };
  org = { 'x-org-token': (await service.token('connect')).secret };
  assessmentToken = (await service.token('assessment')).secret;
  await addPerson({ first_name: 'Ada', last_name: 'Brightwater', email: 'ada@example.com', texts: [{ type: 'various', text: OUTGOING_TEXT }] });
  await addPerson({ first_name: 'Noor', last_name: 'Haddad', email: 'noor@example.com', texts: [{ type: 'various', text: RESERVED_TEXT }] });
  const search = async (email: string) => (await service.connect.inject({ method: 'POST', url: '/v1/profiles', headers: org, payload: { email } })).json<{ request_id: string }>().request_id;
  searches = [await search('ada@example.com'), await search('noor@example.com')];
  const browser = new Browser(service.base);
  await signUp(browser, 'owner@example.com');
  testLink = await testLinkOf(browser);
});

/** Text with something the database refuses (NUL, half a pair), or only odd (noncharacters, controls). */
const REFUSED = ['\u0000', '\ud800', '\udfff', '\udbff\u0000', 'a\udc00b'];
const ODD = ['\uffff', '\ufffe', '\u0001', '\u001b[31m', '\u202e', '\ufeff', '😀'];
const nasty = fc
  .tuple(fc.string({ maxLength: 20 }), fc.constantFrom(...REFUSED, ...ODD), fc.string({ maxLength: 20 }))
  .map(([before, odd, after]) => `${before}${odd}${after}`);
const refused = (value: string) => /\u0000/.test(value) || /[\ud800-\udfff]/u.test(value);

/** A value in a URL: %-encoded as UTF-8, a lone surrogate as the three bytes WTF-8 gives it (what a broken client sends). */
function urlEncode(value: string): string {
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff) out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    else out += encodeURIComponent(char);
  }
  return out;
}

interface Target {
  name: string;
  /** The field the value goes in, as the refusal names it; null where only "no 5xx" is asked (a URL, a page). */
  field: string | null;
  /** Whether a NUL or lone surrogate can reach the route at all this way (a form carries NUL, never half a pair). */
  carries: (value: string) => boolean;
  send: (value: string) => Promise<LightMyRequestResponse>;
}

const json = (app: () => FastifyInstance, method: 'GET' | 'POST', url: () => string, headers: () => Record<string, string>, body: (value: string) => Record<string, unknown>) => (value: string) =>
  app().inject({ method, url: url(), headers: { ...headers(), 'content-type': 'application/json' }, payload: JSON.stringify(body(value)) });
const form = (url: () => string, fields: (value: string) => Record<string, string>, headers: () => Record<string, string> = () => ({})) => (value: string) =>
  service.base.inject({ method: 'POST', url: url(), headers: { ...headers(), 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost' }, payload: new URLSearchParams(fields(value)).toString() });
const get = (app: () => FastifyInstance, url: (encoded: string) => string, headers: () => Record<string, string>) => (value: string) =>
  app().inject({ method: 'GET', url: url(urlEncode(value)), headers: headers() });

const base = () => service.base;
const connect = () => service.connect;
const always = () => true;
const noHalfPairs = (value: string) => value.includes('\u0000');
const SEARCH_FIELDS = ['first_name', 'last_name', 'email', 'company_name', 'location', 'text_sample', 'text_type'];
const searchBody = (field: string, value: string): Record<string, unknown> => {
  const body: Record<string, unknown> = { first_name: 'Ada', last_name: 'Brightwater', text_type: 'bio', [field]: value };
  // A sample long enough to be read, so the search goes as far as the database.
  if (field === 'text_sample') body.text_sample = `${OUTGOING_TEXT} ${value}`;
  return body;
};
const TEST_FIELDS = ['api_user_email', 'email', 'first_name', 'last_name', 'submission_id', 'q.ipc-01'];

const TARGETS: Target[] = [
  ...SEARCH_FIELDS.flatMap((field): Target[] => [
    { name: `POST /v1/profiles ${field}`, field, carries: always, send: json(connect, 'POST', () => '/v1/profiles', () => org, (v) => searchBody(field, v)) },
    { name: `POST /v1/profiles/async ${field}`, field, carries: always, send: json(connect, 'POST', () => '/v1/profiles/async', () => org, (v) => searchBody(field, v)) },
  ]),
  { name: 'POST /v1/messaging text', field: 'text', carries: always, send: json(connect, 'POST', () => `/v1/messaging/${searches[0]}/${searches[1]}`, () => org, (v) => ({ text: `Hi there, ${v}` })) },
  { name: 'GET /v1/messaging JSON body text', field: 'text', carries: always, send: json(connect, 'GET', () => `/v1/messaging/${searches[0]}/${searches[1]}`, () => org, (v) => ({ text: `Hi there, ${v}` })) },
  { name: 'GET /v1/messaging ?text=', field: null, carries: always, send: get(connect, (v) => `/v1/messaging/${searches[0]}/${searches[1]}?text=${v}`, () => org) },
  { name: 'POST /v1/relationships extra field', field: 'note', carries: always, send: json(connect, 'POST', () => `/v1/relationships/${searches[0]}/${searches[1]}`, () => org, (v) => ({ note: v })) },
  { name: 'GET /v1/profiles/results/:id', field: null, carries: always, send: get(connect, (v) => `/v1/profiles/results/${v}`, () => org) },
  { name: 'GET /v1/relationships/:a/:b', field: null, carries: always, send: get(connect, (v) => `/v1/relationships/${searches[0]}/${v}`, () => org) },
  { name: 'GET /v1/emails/:id', field: null, carries: always, send: get(connect, (v) => `/v1/emails/${v}`, () => org) },
  { name: 'POST /v1/analysis/text JSON text', field: 'text', carries: always, send: json(base, 'POST', () => '/v1/analysis/text', () => bearer, (v) => ({ text: `${OUTGOING_TEXT} ${v}` })) },
  { name: 'POST /v1/analysis/text form text', field: 'text', carries: noHalfPairs, send: (v) => service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers: { ...bearer, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ text: v }).toString() }) },
  { name: 'POST /v1/analysis/text plain text', field: 'body', carries: noHalfPairs, send: (v) => service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers: { ...bearer, 'content-type': 'text/plain' }, payload: `${OUTGOING_TEXT} ${v}` }) },
  {
    name: 'POST /v1/analysis/text multipart text',
    field: 'text',
    carries: noHalfPairs,
    send: (v) => {
      const boundary = 'nastyboundary';
      const payload = `--${boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\n${v}\r\n--${boundary}--\r\n`;
      return service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers: { ...bearer, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
    },
  },
  { name: 'GET /v1/analysis/text ?text=', field: null, carries: always, send: get(base, (v) => `/v1/analysis/text?text=${v}`, () => bearer) },
  { name: 'GET /v1/profiles ?email=', field: null, carries: always, send: get(base, (v) => `/v1/profiles?email=${v}`, () => bearer) },
  { name: 'GET /v1/profiles ?linkedin_url=', field: null, carries: always, send: get(base, (v) => `/v1/profiles?linkedin_url=https://linkedin.com/in/${v}`, () => bearer) },
  { name: 'GET /v1/analysis/:id', field: null, carries: always, send: get(base, (v) => `/v1/analysis/${v}`, () => bearer) },
  { name: 'GET /v1/personality_assessments/find ?email=', field: null, carries: always, send: get(base, (v) => `/v1/personality_assessments/find?token=${assessmentToken}&email=${v}`, () => ({})) },
  { name: 'GET /p/:id', field: null, carries: always, send: get(base, (v) => `/p/${v}`, () => ({})) },
  { name: 'GET /images/disc-map/p/:file', field: null, carries: always, send: get(base, (v) => `/images/disc-map/p/${v}.svg`, () => ({})) },
  { name: 'GET /r/:id ?key=', field: null, carries: always, send: get(base, (v) => `/r/${v}?key=${v}`, () => ({})) },
  { name: 'GET /t/:id ?api_user_email=', field: null, carries: always, send: get(base, (v) => `${testLink}?api_user_email=${v}`, () => ({})) },
  ...TEST_FIELDS.map((field): Target => ({ name: `POST /t/:id ${field}`, field, carries: noHalfPairs, send: form(() => testLink, (v) => ({ ...answerFields(), email: 'taker@example.com', [field]: v })) })),
  { name: 'POST /signup email', field: 'email', carries: noHalfPairs, send: form(() => '/signup', (v) => ({ email: v, password: 'correct horse battery', csrf: 'x' })) },
  { name: 'POST /login password', field: 'password', carries: noHalfPairs, send: form(() => '/login', (v) => ({ email: 'owner@example.com', password: v, csrf: 'x' })) },
  { name: 'POST /r/:id/delete key', field: 'key', carries: noHalfPairs, send: form(() => '/r/nothing/delete', (v) => ({ key: v })) },
];

describe('text the database refuses, in any string field of any route', () => {
  it.each(TARGETS.map((t) => [t.name, t] as const))('%s: never a 5xx; a NUL or half a pair is a 400 naming the field', async (_name, target) => {
    await fc.assert(
      fc.asyncProperty(nasty, async (value) => {
        const response = await target.send(value);
        expect(response.statusCode, `${target.name} ${JSON.stringify(value)}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
        if (target.field === null || !refused(value) || !target.carries(value)) return;
        expect(response.statusCode, `${target.name} ${JSON.stringify(value)}`).toBe(400);
        const said = String(response.headers['content-type']).startsWith('text/html') ? response.body : response.json<{ error: { message: string } }>().error.message;
        expect(said, target.name).toMatch(target.field === 'body' ? /the body holds/ : new RegExp(`(field|parameter) (&quot;|")${target.field.replace('.', '\\.')}(&quot;|") holds`));
      }),
      { numRuns: 12 },
    );
  });
});
