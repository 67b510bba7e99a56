import { request } from 'node:http';
import { MAX_TEXT_CHARS } from '../../src/analysis/analyses.ts';
import { textBodyBytes } from '../../src/http/common/body-caps.ts';
import { MESSAGE_MAX_CHARS } from '../../src/content/connect/messaging.ts';

/**
 * The bodies of issue 25's stall (finding 2), for every route that takes a body: a form of a
 * million fields, and bodies at each of the route's caps (the most fields and bytes of its form,
 * the deepest and largest JSON), with the long texts the text routes take at their limits. Used
 * by test/http/body-caps-healthz.test.ts and bench/bodies.ts, against a running service.
 */

export interface HostileRequest {
  /** What it is, for reports: "POST /t/{id} million-field form". */
  name: string;
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  /** Over a cap: refused with 413 (or the connection closed right after it, the body unread). */
  overCap: boolean;
  /** The refusal of an over-cap body: 413, or 415 where the route takes no form at all (the PDF upload). */
  refusedWith?: number;
}

export interface HostileTargets {
  baseUrl: string;
  connectUrl: string;
  enterpriseToken: string;
  connectToken: string;
  /** Two completed searches of the connect token, so that the message check reads a real draft. */
  searches: [string, string];
}

const KB = 1024;
const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
/** 100,000 characters: the text routes' limit. */
const LONG_TEXT = longText(MAX_TEXT_CHARS);

function longText(chars: number): string {
  const sentence = 'We planned the launch together, argued about the details, and I kept notes for everyone. ';
  return sentence.repeat(Math.ceil(chars / sentence.length)).slice(0, chars);
}

function form(fields: number, bytes: number): string {
  const body = Array.from({ length: fields }, (_, i) => `f${i}=x`).join('&');
  return body.length >= bytes ? body : `${body}${'y'.repeat(bytes - body.length)}`;
}

function nested(depth: number, bytes: number): string {
  const body = `${'{"a":'.repeat(depth - 1)}{"a":"x"}${'}'.repeat(depth - 1)}`;
  return body.length >= bytes ? body : `${body}${' '.repeat(bytes - body.length)}`;
}

export function hostileRequests(targets: HostileTargets): HostileRequest[] {
  const million = Buffer.from('a&'.repeat(1_000_000));
  const bearer = { authorization: `Bearer ${targets.enterpriseToken}` };
  const org = { 'x-org-token': targets.connectToken };
  const [one, two] = targets.searches;
  const routes = [
    { name: 'POST /t/{id}', url: `${targets.baseUrl}/t/no-such-link`, auth: {}, fields: 64, bytes: 16 * KB, depth: 4 },
    { name: 'POST /login', url: `${targets.baseUrl}/login`, auth: {}, fields: 8, bytes: 8 * KB, depth: 4 },
    { name: 'POST /signup', url: `${targets.baseUrl}/signup`, auth: {}, fields: 8, bytes: 8 * KB, depth: 4 },
    { name: 'POST /h/{id}', url: `${targets.baseUrl}/h/no-such-link`, auth: {}, fields: 64, bytes: 16 * KB, depth: 4 },
    { name: 'POST /logout', url: `${targets.baseUrl}/logout`, auth: {}, fields: 4, bytes: KB, depth: 4 },
    { name: 'POST /dashboard/token', url: `${targets.baseUrl}/dashboard/token`, auth: {}, fields: 4, bytes: KB, depth: 4 },
    { name: 'POST /dashboard/confirm-email', url: `${targets.baseUrl}/dashboard/confirm-email`, auth: {}, fields: 4, bytes: KB, depth: 4 },
    { name: 'POST /confirm/{token}', url: `${targets.baseUrl}/confirm/no-such-link`, auth: {}, fields: 4, bytes: KB, depth: 4 },
    { name: 'POST /dashboard/hiring', url: `${targets.baseUrl}/dashboard/hiring`, auth: {}, fields: 6, bytes: 24 * KB, depth: 4 },
    { name: 'POST /r/{id}/delete', url: `${targets.baseUrl}/r/no-such-result/delete`, auth: {}, fields: 4, bytes: KB, depth: 4 },
    { name: 'POST /v1/analysis/text', url: `${targets.baseUrl}/v1/analysis/text`, auth: bearer, fields: 8, bytes: textBodyBytes(MAX_TEXT_CHARS), depth: 2 },
    { name: 'POST /v1/profiles', url: `${targets.connectUrl}/v1/profiles`, auth: org, fields: 16, bytes: textBodyBytes(MAX_TEXT_CHARS), depth: 2 },
    { name: 'POST /v1/profiles/async', url: `${targets.connectUrl}/v1/profiles/async`, auth: org, fields: 16, bytes: textBodyBytes(MAX_TEXT_CHARS), depth: 2 },
    { name: 'POST /v1/messaging', url: `${targets.connectUrl}/v1/messaging/${one}/${two}`, auth: org, fields: 8, bytes: textBodyBytes(MESSAGE_MAX_CHARS), depth: 2 },
    { name: 'POST /v1/relationships', url: `${targets.connectUrl}/v1/relationships/${one}/${two}`, auth: org, fields: 8, bytes: KB, depth: 4 },
    { name: 'POST /v1/emails', url: `${targets.connectUrl}/v1/emails/${one}`, auth: org, fields: 8, bytes: KB, depth: 4 },
  ];
  const requests: HostileRequest[] = [];
  for (const route of routes) {
    requests.push({ name: `${route.name} million-field form`, url: route.url, headers: { ...route.auth, 'content-type': FORM }, body: million, overCap: true });
    requests.push({ name: `${route.name} form at its caps`, url: route.url, headers: { ...route.auth, 'content-type': FORM }, body: Buffer.from(form(route.fields, route.bytes)), overCap: false });
    requests.push({ name: `${route.name} JSON at its caps`, url: route.url, headers: { ...route.auth, 'content-type': JSON_TYPE }, body: Buffer.from(nested(route.depth, route.bytes)), overCap: false });
  }
  // The PDF upload takes no form: refused by its Content-Type before a byte is read (its PDFs: pdf-uploads-healthz.test.ts).
  requests.push({ name: 'POST /v1/analysis/pdf million-field form', url: `${targets.baseUrl}/v1/analysis/pdf`, headers: { ...bearer, 'content-type': FORM }, body: million, overCap: true, refusedWith: 415 });
  // The long texts each text route takes, whole: read in the text pool's threads, not on the event loop.
  const json = (value: unknown) => Buffer.from(JSON.stringify(value));
  requests.push({ name: 'POST /v1/analysis/text 100,000 characters', url: `${targets.baseUrl}/v1/analysis/text`, headers: { ...bearer, 'content-type': JSON_TYPE }, body: json({ text: LONG_TEXT }), overCap: false });
  const sample = { email: 'nobody.at.all@example.com', text_sample: LONG_TEXT, text_type: 'bio' };
  requests.push({ name: 'POST /v1/profiles 100,000-character sample', url: `${targets.connectUrl}/v1/profiles`, headers: { ...org, 'content-type': JSON_TYPE }, body: json(sample), overCap: false });
  requests.push({ name: 'POST /v1/messaging 20,000 characters', url: `${targets.connectUrl}/v1/messaging/${one}/${two}`, headers: { ...org, 'content-type': JSON_TYPE }, body: json({ text: longText(MESSAGE_MAX_CHARS) }), overCap: false });
  return requests;
}

/** The status of one request, or 'reset' when the connection closed before an answer came. */
export function send(hostile: HostileRequest): Promise<number | 'reset'> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: number | 'reset') => {
      if (!settled) resolve(outcome);
      settled = true;
    };
    const req = request(hostile.url, { method: 'POST', agent: false, headers: { ...hostile.headers, 'content-length': String(hostile.body.length) } }, (response) => {
      response.resume();
      settle(response.statusCode ?? 0);
    });
    // The service answers an over-cap body at once and closes: writing the rest then fails here.
    req.on('error', () => settle('reset'));
    req.end(hostile.body);
  });
}

/** `clients` loops sending the requests round robin, `rounds` passes each; every outcome by request name. */
export async function sendFromClients(requests: readonly HostileRequest[], clients: number, rounds: number): Promise<Map<string, (number | 'reset')[]>> {
  const outcomes = new Map<string, (number | 'reset')[]>(requests.map((r) => [r.name, []]));
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let round = 0; round < rounds; round++) {
        for (let i = 0; i < requests.length; i++) {
          const hostile = requests[(i + client) % requests.length];
          if (hostile) outcomes.get(hostile.name)?.push(await send(hostile));
        }
      }
    }),
  );
  return outcomes;
}
