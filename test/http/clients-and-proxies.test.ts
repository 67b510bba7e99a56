import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkProductionLinks, ConfigError, loadConfig } from '../../src/config.ts';
import { analyzeTexts } from '../../src/people/analyze.ts';
import { upsertPerson } from '../../src/people/repository.ts';
import { validatePersonRecord } from '../../src/people/validate.ts';
import { OUTGOING_TEXT, RESERVED_TEXT } from '../fixtures/texts.ts';
import { runCli } from '../helpers/process.ts';
import { useTestService, createTestService } from '../helpers/service.ts';

/**
 * Clients that send more than they need, and the rest of issue 25's finding 8: an empty JSON
 * body on a route that reads none, nosniff and a frame policy, RAPPORT_TRUST_PROXY, links only
 * from PUBLIC_BASE_URL in production, the error body for a request without Host, request ids a
 * token cannot pass through into the log, and C2's names HTML-safe like every Connect string.
 */

const lines: string[] = [];
const service = useTestService({ LOG_LEVEL: 'info' }, { logs: { write: (line: string) => void lines.push(line) } });
let baseUrl: string;
let bearer: Record<string, string>;
let org: Record<string, string>;
let searches: [string, string];
let publicId: string;

async function addPerson(record: Record<string, unknown>): Promise<string> {
  const validated = validatePersonRecord(record);
  if (!validated.ok) throw new Error(validated.reason);
  const { person } = await upsertPerson(service.ctx.db, validated.input, { source: 'import', analyze: (texts) => analyzeTexts(service.ctx.model, texts) });
  if (!person) throw new Error('not stored');
  const [row] = await service.ctx.db.query<{ public_id: string }>('SELECT public_id FROM people WHERE id = $1', [person.id]);
  return row?.public_id ?? '';
}

beforeAll(async () => {
  baseUrl = await service.base.listen({ port: 0, host: '127.0.0.1' });
  bearer = { authorization: `Bearer ${(await service.token('enterprise')).secret}` };
  org = { 'x-org-token': (await service.token('connect')).secret };
  publicId = await addPerson({ first_name: '<b>Siobhan</b>', last_name: "O'Brien & Co", email: 'siobhan@example.com', texts: [{ type: 'various', text: OUTGOING_TEXT }] });
  await addPerson({ first_name: 'Noor', last_name: 'Haddad', email: 'noor@example.com', texts: [{ type: 'various', text: RESERVED_TEXT }] });
  const search = async (email: string) => (await service.connect.inject({ method: 'POST', url: '/v1/profiles', headers: org, payload: { email } })).json<{ request_id: string }>().request_id;
  searches = [await search('siobhan@example.com'), await search('noor@example.com')];
});

describe('an empty body with a JSON content type, on a route that reads no body', () => {
  it('is no body: POST relationships and emails answer as without it', async () => {
    const [one, two] = searches;
    for (const url of [`/v1/relationships/${one}/${two}`, `/v1/emails/${one}`]) {
      for (const payload of ['', '  \r\n', '{}']) {
        const response = await service.connect.inject({ method: 'POST', url, headers: { ...org, 'content-type': 'application/json' }, payload });
        expect(response.statusCode, `${url} ${JSON.stringify(payload)}: ${response.body.slice(0, 200)}`).toBe(200);
      }
    }
    // A route that reads a body still says that an empty one is not one.
    const search = await service.connect.inject({ method: 'POST', url: '/v1/profiles', headers: { ...org, 'content-type': 'application/json' }, payload: '' });
    expect(search.statusCode).toBe(400);
    expect(search.json().error.message).toBe('The body is empty but Content-Type says JSON.');
  });
});

describe('headers every answer carries', () => {
  it('nosniff on answers, errors, pages and images; profile pages refuse to be framed', async () => {
    const answers = [
      await service.base.inject({ url: '/healthz' }),
      await service.base.inject({ url: '/v1/usage', headers: bearer }),
      await service.base.inject({ url: '/v1/usage' }),
      await service.base.inject({ url: '/nowhere' }),
      await service.base.inject({ url: `/p/${publicId}` }),
      await service.base.inject({ url: `/images/disc-map/p/${publicId}.svg` }),
      await service.base.inject({ url: '/login' }),
      await service.connect.inject({ url: '/v1/usage', headers: org }),
    ];
    for (const answer of answers) {
      expect(answer.headers['x-content-type-options'], answer.raw.req.url).toBe('nosniff');
      expect(answer.headers['x-frame-options'], answer.raw.req.url).toBe('DENY');
    }
    const page = answers[4];
    expect(page?.statusCode).toBe(200);
    expect(page?.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    // Answered before routing, by the HTTP parser's handler: a URL over 64 KB.
    const raw = await rawRequest(`GET /v1/analysis/text?text=${'a'.repeat(70 * 1024)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(raw).toMatch(/^HTTP\/1\.1 431 /);
    expect(raw.toLowerCase()).toContain('x-content-type-options: nosniff');
  });
});

/** Sends raw HTTP on a connection of its own; the whole answer as text. */
function rawRequest(text: string): Promise<string> {
  const url = new URL(baseUrl);
  return new Promise<string>((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write(text));
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString();
      // A kept-alive answer does not close: stop once its body is in.
      const head = data.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(data.slice(0, head));
      if (head >= 0 && length && data.length >= head + 4 + Number(length[1])) socket.end();
    });
    socket.on('close', () => resolve(data));
    socket.on('error', reject);
  });
}

describe('a request without Host', () => {
  it('gets 400 with the error body and a request id, like every refusal', async () => {
    const raw = await rawRequest('GET /healthz HTTP/1.1\r\n\r\n');
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as { error: { code: string; message: string; request_id: string } };
    expect(body.error.code).toBe('bad_request');
    expect(body.error.message).toMatch(/no Host header/);
    expect(raw).toContain(`x-request-id: ${body.error.request_id}`);
    // HTTP/1.0 has no Host to require: still answered.
    expect(await rawRequest('GET /healthz HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('request ids', () => {
  it('keeps the shapes request ids come in, and never logs a token sent as one', async () => {
    const uuid = '3f2b8c1e-9a4d-4c7e-8f00-1b2c3d4e5f60';
    for (const kept of ['trace-123', uuid, 'a'.repeat(16).replace(/a/g, 'f') + '0123456789abcdef']) {
      expect((await service.base.inject({ url: '/healthz', headers: { 'x-request-id': kept } })).headers['x-request-id']).toBe(kept);
    }
    const token = bearer.authorization?.slice('Bearer '.length) ?? '';
    const secretLike = ['x'.repeat(40), token, token.slice(0, 20), 'Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eA'];
    for (const sent of secretLike) {
      const answer = await service.base.inject({ url: '/healthz', headers: { 'x-request-id': sent } });
      expect(answer.headers['x-request-id'], sent).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
    const log = lines.join('');
    for (const sent of secretLike) expect(log).not.toContain(sent);
  });
});

describe('RAPPORT_TRUST_PROXY', () => {
  it('behind a TLS proxy, cookies are Secure and links take the forwarded scheme and host; untrusted, neither', async () => {
    const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'rapport.example.com', 'x-forwarded-for': '203.0.113.9' };
    const untrusted = await service.base.inject({ url: '/login', headers: forwarded });
    expect(String(untrusted.headers['set-cookie'])).not.toMatch(/Secure/);
    const proxied = await createTestService({ RAPPORT_TRUST_PROXY: '127.0.0.1' });
    try {
      const login = await proxied.base.inject({ url: '/login', headers: forwarded });
      expect(String(login.headers['set-cookie'])).toMatch(/; Secure/);
      const auth = { authorization: `Bearer ${(await proxied.token('enterprise')).secret}` };
      const analysis = await proxied.base.inject({ url: `/v1/analysis/text?text=${encodeURIComponent(OUTGOING_TEXT)}`, headers: { ...auth, ...forwarded } });
      expect(analysis.json().data.images.disc_map).toMatch(/^https:\/\/rapport\.example\.com\/images\/disc-map\//);
      // A proxy it does not trust (any other address) is a client like any other.
      const other = await proxied.base.inject({ url: '/login', headers: forwarded, remoteAddress: '198.51.100.7' });
      expect(String(other.headers['set-cookie'])).not.toMatch(/Secure/);
    } finally {
      await proxied.close();
    }
  });

  it('is read as true, false, hops or proxy addresses, and a bad value stops the start naming it', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ RAPPORT_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ RAPPORT_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ RAPPORT_TRUST_PROXY: '10.0.0.0/8, loopback,::1' }).trustProxy).toEqual(['10.0.0.0/8', 'loopback', '::1']);
    expect(() => loadConfig({ RAPPORT_TRUST_PROXY: 'proxy.internal' })).toThrow(/RAPPORT_TRUST_PROXY .*"proxy\.internal" is none of these/);
  });
});

describe('links in production', () => {
  it('a start under NODE_ENV=production needs PUBLIC_BASE_URL and PUBLIC_CONNECT_URL', async () => {
    expect(() => checkProductionLinks(loadConfig({ NODE_ENV: 'production' }))).toThrow(ConfigError);
    expect(() => checkProductionLinks(loadConfig({ NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://r.example.com' }))).toThrow(/PUBLIC_CONNECT_URL must be set/);
    expect(() => checkProductionLinks(loadConfig({ NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://r.example.com', PUBLIC_CONNECT_URL: 'https://c.example.com' }))).not.toThrow();
    expect(() => checkProductionLinks(loadConfig({}))).not.toThrow();
    const refused = await runCli(['serve'], { NODE_ENV: 'production', PUBLIC_BASE_URL: '', PUBLIC_CONNECT_URL: '', RAPPORT_DATA_DIR: '/nonexistent/rapport-never-created', PORT: '0', CONNECT_PORT: '0' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^rapport: Invalid configuration: PUBLIC_BASE_URL must be set when NODE_ENV=production/);
  });

  it('outside production, a Host header still makes the links; with PUBLIC_BASE_URL set it never does', async () => {
    const pinned = await createTestService({ PUBLIC_BASE_URL: 'https://rapport.example.com' });
    try {
      const auth = { authorization: `Bearer ${(await pinned.token('enterprise')).secret}` };
      const analysis = await pinned.base.inject({ url: `/v1/analysis/text?text=${encodeURIComponent(OUTGOING_TEXT)}`, headers: { ...auth, host: 'evil.example' } });
      expect(analysis.json().data.images.disc_map).toMatch(/^https:\/\/rapport\.example\.com\//);
    } finally {
      await pinned.close();
    }
  });
});

describe("C2's names", () => {
  it('are HTML-safe like every other Connect string', async () => {
    const found = await service.connect.inject({ url: `/v1/profiles/results/${searches[0]}`, headers: org });
    const info = found.json<{ info: { first_name: string; last_name: string } }>().info;
    expect(info.first_name).toBe('&lt;b&gt;Siobhan&lt;/b&gt;');
    expect(info.last_name).toBe('O&#39;Brien &amp; Co');
  });
});
