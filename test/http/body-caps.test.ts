import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { useTestService } from '../helpers/service.ts';

/**
 * Every route that takes a body declares what it takes (src/http/common/body-caps.ts): a body
 * over a cap, in bytes, form fields or JSON nesting, is a 413 before it is parsed, and a body at
 * the cap is read. Before, every form route took 12 MB and any number of fields: a million-field
 * form held the event loop for seconds (issue 25, finding 2). The load side of it, /healthz while
 * ten clients send such bodies, is test/http/body-caps-healthz.test.ts.
 */

const service = useTestService();
let bearer: Record<string, string>;
let org: Record<string, string>;
/** Group B takes its token in the query. */
let assessmentToken = '';

beforeAll(async () => {
  bearer = { authorization: `Bearer ${(await service.token('enterprise')).secret}` };
  org = { 'x-org-token': (await service.token('connect')).secret };
  assessmentToken = (await service.token('assessment')).secret;
});

interface BodyRoute {
  host: 'base' | 'connect';
  /** The route as the OpenAPI document names it. */
  path: string;
  url: string;
  auth: () => Record<string, string>;
  fields: number;
  bytes: number;
  /** JSON nesting it takes; null for pages, whose forms are not JSON. */
  depth: number | null;
}

const KB = 1024;
const none = () => ({});
/** The caps each route declares; the first test checks this list holds every route that takes a body. */
const ROUTES: BodyRoute[] = [
  { host: 'base', path: '/t/{linkId}', url: '/t/no-such-link', auth: none, fields: 64, bytes: 16 * KB, depth: null },
  { host: 'base', path: '/h/{linkId}', url: '/h/no-such-link', auth: none, fields: 64, bytes: 16 * KB, depth: null },
  { host: 'base', path: '/signup', url: '/signup', auth: none, fields: 8, bytes: 8 * KB, depth: null },
  { host: 'base', path: '/login', url: '/login', auth: none, fields: 8, bytes: 8 * KB, depth: null },
  { host: 'base', path: '/logout', url: '/logout', auth: none, fields: 4, bytes: KB, depth: null },
  { host: 'base', path: '/dashboard/token', url: '/dashboard/token', auth: none, fields: 4, bytes: KB, depth: null },
  { host: 'base', path: '/dashboard/confirm-email', url: '/dashboard/confirm-email', auth: none, fields: 4, bytes: KB, depth: null },
  { host: 'base', path: '/confirm/{token}', url: '/confirm/no-such-link', auth: none, fields: 4, bytes: KB, depth: null },
  { host: 'base', path: '/dashboard/hiring', url: '/dashboard/hiring', auth: none, fields: 6, bytes: 24 * KB, depth: null },
  { host: 'base', path: '/r/{resultId}/delete', url: '/r/no-such-result/delete', auth: none, fields: 4, bytes: KB, depth: null },
  { host: 'base', path: '/v1/analysis/text', url: '/v1/analysis/text', auth: () => bearer, fields: 8, bytes: 100_000 * 9 + 16 * KB, depth: 2 },
  { host: 'connect', path: '/v1/profiles', url: '/v1/profiles', auth: () => org, fields: 16, bytes: 100_000 * 9 + 16 * KB, depth: 2 },
  { host: 'connect', path: '/v1/profiles/async', url: '/v1/profiles/async', auth: () => org, fields: 16, bytes: 100_000 * 9 + 16 * KB, depth: 2 },
  { host: 'connect', path: '/v1/messaging/{sender}/{recipient}', url: '/v1/messaging/pr_a/pr_b', auth: () => org, fields: 8, bytes: 20_000 * 9 + 16 * KB, depth: 2 },
  { host: 'base', path: '/r/{resultId}/share', url: '/r/no-such-result/share', auth: none, fields: 4, bytes: KB, depth: null },
  { host: 'base', path: '/r/{resultId}/share/off', url: '/r/no-such-result/share/off', auth: none, fields: 4, bytes: KB, depth: null },
  { host: 'base', path: '/password-reset', url: '/password-reset', auth: none, fields: 4, bytes: 2 * KB, depth: null },
  { host: 'base', path: '/dashboard/organisation', url: '/dashboard/organisation', auth: none, fields: 4, bytes: 2 * KB, depth: null },
  { host: 'base', path: '/dashboard/takers/remove', url: '/dashboard/takers/remove', auth: none, fields: 4, bytes: 2 * KB, depth: null },
  { host: 'base', path: '/dashboard/hiring/close', url: '/dashboard/hiring/close', auth: none, fields: 4, bytes: 2 * KB, depth: null },
  { host: 'base', path: '/dashboard/webhooks', url: '/dashboard/webhooks', auth: none, fields: 16, bytes: 8 * KB, depth: null },
  ...['delete', 'rotate', 'enable', 'test'].map((verb): BodyRoute => ({ host: 'base', path: `/dashboard/webhooks/{id}/${verb}`, url: `/dashboard/webhooks/wh_none/${verb}`, auth: none, fields: 4, bytes: KB, depth: null })),
  { host: 'base', path: '/v1/webhooks', url: '/v1/webhooks', auth: () => bearer, fields: 8, bytes: 8 * KB, depth: 2 },
  { host: 'base', path: '/v1/personality_assessments/webhooks', get url() { return `/v1/personality_assessments/webhooks?token=${assessmentToken}`; }, auth: none, fields: 8, bytes: 8 * KB, depth: 2 },
  { host: 'connect', path: '/v1/webhooks', url: '/v1/webhooks', auth: () => org, fields: 8, bytes: 8 * KB, depth: 2 },
  // Routes that read no body take a small one and ignore it.
  { host: 'connect', path: '/v1/relationships/{profile_one}/{profile_two}', url: '/v1/relationships/pr_a/pr_b', auth: () => org, fields: 8, bytes: KB, depth: 4 },
  { host: 'connect', path: '/v1/emails/{request_id}', url: '/v1/emails/pr_a', auth: () => org, fields: 8, bytes: KB, depth: 4 },
  ...['rotate-secret', 'test', 'enable'].flatMap((verb): BodyRoute[] => [
    { host: 'base', path: `/v1/webhooks/{id}/${verb}`, url: `/v1/webhooks/wh_none/${verb}`, auth: () => bearer, fields: 8, bytes: KB, depth: 4 },
    { host: 'base', path: `/v1/personality_assessments/webhooks/{id}/${verb}`, get url() { return `/v1/personality_assessments/webhooks/wh_none/${verb}?token=${assessmentToken}`; }, auth: none, fields: 8, bytes: KB, depth: 4 },
    { host: 'connect', path: `/v1/webhooks/{id}/${verb}`, url: `/v1/webhooks/wh_none/${verb}`, auth: () => org, fields: 8, bytes: KB, depth: 4 },
  ]),
];
/** Takes uploads only: its caps are those of a multipart body (below). */
const UPLOAD = '/v1/analysis/pdf';

const app = (route: BodyRoute): FastifyInstance => (route.host === 'base' ? service.base : service.connect);
const FORM = 'application/x-www-form-urlencoded';

function post(route: BodyRoute, type: string, payload: string | Buffer): Promise<LightMyRequestResponse> {
  return app(route).inject({ method: 'POST', url: route.url, headers: { ...route.auth(), 'content-type': type }, payload });
}

/** `count` fields `f0=x&f1=x…`, padded (in the last value) to `bytes` when given. */
function form(count: number, bytes = 0): string {
  const fields = Array.from({ length: count }, (_, i) => `f${i}=x`);
  const body = fields.join('&');
  return body.length >= bytes ? body : `${body}${'y'.repeat(bytes - body.length)}`;
}

/** JSON nested `depth` levels (`{"a":{"a":…}}`), padded with spaces to `bytes` when given. */
function nested(depth: number, bytes = 0): string {
  const body = `${'{"a":'.repeat(depth - 1)}{"a":"x"}${'}'.repeat(depth - 1)}`;
  return body.length >= bytes ? body : `${body}${' '.repeat(bytes - body.length)}`;
}

/** The refusal's message: the error body's, or on the pages (which answer errors as pages) the page's text. */
function message(response: LightMyRequestResponse): string {
  if (String(response.headers['content-type']).startsWith('text/html')) return response.body;
  return (response.json() as { error: { message: string } }).error.message;
}

describe('every route that takes a body declares its caps', () => {
  it('the list above holds every POST route of both hosts', async () => {
    const posted = async (host: FastifyInstance) => {
      const doc = (await host.inject({ url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
      return Object.entries(doc.paths).flatMap(([path, operations]) => ('post' in operations ? [path] : []));
    };
    const listed = new Set([...ROUTES.map((r) => r.path), UPLOAD]);
    for (const path of [...(await posted(service.base)), ...(await posted(service.connect))]) expect(listed, path).toContain(path);
  });

  it('a million-field form is refused with 413 on every one of them, from its declared length', async () => {
    const million = 'a&'.repeat(1_000_000);
    for (const route of ROUTES) {
      const response = await post(route, FORM, million);
      expect(response.statusCode, route.path).toBe(413);
      expect(message(response), route.path).toMatch(/larger than this endpoint takes/);
    }
    const upload = await service.base.inject({ method: 'POST', url: UPLOAD, headers: { ...bearer, 'content-type': FORM }, payload: million });
    expect(upload.statusCode).toBe(415);
  });

  it('a form of one field more than a route takes is 413 naming the count; one at its caps is read', async () => {
    for (const route of ROUTES) {
      const over = await post(route, FORM, form(route.fields + 1));
      expect(over.statusCode, route.path).toBe(413);
      expect(message(over), route.path).toContain(`The form has ${route.fields + 1} fields; this endpoint takes at most ${route.fields}.`);
      const atCaps = await post(route, FORM, form(route.fields, route.bytes));
      expect(atCaps.statusCode, `${route.path} at its caps`).not.toBe(413);
      expect(atCaps.statusCode, `${route.path} at its caps`).toBeLessThan(500);
      const overBytes = await post(route, FORM, form(1, route.bytes + 1));
      expect(overBytes.statusCode, `${route.path} a byte over`).toBe(413);
      expect(message(overBytes)).toMatch(/The request body is larger than this endpoint takes \(/);
    }
  });

  it('JSON nested one level deeper than a route takes is 413 before it is parsed; at its depth it is read', async () => {
    for (const route of ROUTES) {
      const depth = route.depth ?? 4;
      const over = await post(route, 'application/json', nested(depth + 1));
      expect(over.statusCode, route.path).toBe(413);
      expect(message(over)).toContain(`The JSON body nests objects or arrays more than ${depth} levels deep; this endpoint takes at most ${depth}.`);
      const atCaps = await post(route, 'application/json', nested(depth, route.bytes));
      expect(atCaps.statusCode, `${route.path} at its caps`).not.toBe(413);
      expect(atCaps.statusCode, `${route.path} at its caps`).toBeLessThan(500);
    }
    // Ten thousand levels, a few KB: never handed to the parser (or to a recursive validator).
    const deep = await post(ROUTES.find((r) => r.path === '/v1/profiles') as BodyRoute, 'application/json', '['.repeat(10_000));
    expect(deep.statusCode).toBe(413);
  });

  it('a multipart body with more parts than a route reads gets its own 413, not "larger than"', async () => {
    const boundary = 'capsboundary';
    const parts = (count: number) =>
      Array.from({ length: count }, (_, i) => `--${boundary}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nx\r\n`).join('') + `--${boundary}--\r\n`;
    const headers = { ...bearer, 'content-type': `multipart/form-data; boundary=${boundary}` };
    const text = await service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers, payload: parts(11) });
    expect(text.statusCode).toBe(413);
    expect(message(text)).toMatch(/^The multipart body has more than 5 fields; this endpoint reads one field or file part named "text"/);
    const upload = await service.base.inject({ method: 'POST', url: UPLOAD, headers, payload: parts(11) });
    expect(upload.statusCode).toBe(413);
    expect(message(upload)).toBe('The multipart body has more than 5 fields; this endpoint reads one file part named "file".');
  });
});
