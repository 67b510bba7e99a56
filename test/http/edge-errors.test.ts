import { beforeAll, describe, expect, it } from 'vitest';
import { redactUrl, serializeError } from '../../src/shared/logger.ts';
import { BENCH_TEXT_1000 } from '../../bench/texts.ts';
import { OUTGOING_TEXT, RESERVED_TEXT } from '../fixtures/texts.ts';
import { useTestService } from '../helpers/service.ts';

const lines: string[] = [];
const service = useTestService({ LOG_LEVEL: 'info', RAPPORT_DEMO_DATA: 'true' }, { logs: { write: (line: string) => void lines.push(line) } });
let baseUrl: string;
let bearer: Record<string, string>;

beforeAll(async () => {
  baseUrl = await service.base.listen({ port: 0, host: '127.0.0.1' });
  const token = await service.token('enterprise');
  bearer = { authorization: `Bearer ${token.secret}` };
});

describe('requests refused before routing', () => {
  it('a GET text over the 16 KB Node default still works', async () => {
    // About 1,300 words with every byte percent-encoded.
    const text = [BENCH_TEXT_1000, OUTGOING_TEXT, RESERVED_TEXT].join(' ');
    const encoded = [...Buffer.from(text)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
    const url = `${baseUrl}/v1/analysis/text?text=${encoded}`;
    expect(url.length).toBeGreaterThan(17 * 1024);
    const response = await fetch(url, { headers: bearer });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: { personalities: { disc_type: string } } }).data.personalities.disc_type).toMatch(/^[DISC][disc]?$/);
  });

  it('a URL over 64 KB gets 431 with the error body and a request id, and says what to do', async () => {
    const response = await fetch(`${baseUrl}/v1/analysis/text?text=${'word%20'.repeat(12_000)}`, { headers: bearer });
    expect(response.status).toBe(431);
    const body = (await response.json()) as { error: { code: string; message: string; request_id: string } };
    expect(body.error.code).toBe('headers_too_large');
    expect(body.error.message).toMatch(/POST \/v1\/analysis\/text/);
    expect(response.headers.get('x-request-id')).toBe(body.error.request_id);
    // The service is still fine afterwards.
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
  });
});

describe('request log', () => {
  it('writes one line per request with its id, and no token, email, or submitted text', async () => {
    const secretText = 'Zanzibarian marmalade confessions';
    const token = await service.token('assessment');
    const calls = [
      fetch(`${baseUrl}/v1/profiles?email=${encodeURIComponent('maya.okafor@example.org')}`, { headers: bearer }),
      fetch(`${baseUrl}/v1/analysis/text?text=${encodeURIComponent(secretText)}`, { headers: bearer }),
      fetch(`${baseUrl}/v1/personality_assessments/usage?token=${token.secret}`),
    ];
    const ids = (await Promise.all(calls)).map((response) => response.headers.get('x-request-id'));
    const logged = lines.join('');
    for (const id of ids) expect(logged).toContain(`"request_id":"${id}"`);
    expect(logged).not.toContain('maya.okafor');
    expect(logged).not.toContain('Zanzibarian');
    expect(logged).not.toContain(token.secret);
    expect(logged).toContain('/v1/profiles?email=[REDACTED]');
  });

  it('logs an error without the statement, values or quoted parts a database error carries', () => {
    const database = Object.assign(new Error('value "3000000000" is out of range for type integer'), {
      code: '22003',
      query: 'INSERT INTO api_tokens (token_hash) VALUES ($1)',
      params: ['deadbeef'],
      detail: 'Key (email)=(ada@example.org) already exists.',
    });
    const logged = JSON.stringify(serializeError(new Error('import failed', { cause: database })));
    expect(logged).toContain('22003');
    expect(logged).toContain('out of range for type integer');
    for (const secret of ['3000000000', 'INSERT', 'deadbeef', 'ada@example.org']) expect(logged).not.toContain(secret);
    expect(serializeError(new TypeError('x is not a function'))).toMatchObject({ type: 'TypeError', message: 'x is not a function' });
  });

  it('redacts every query value but paging and switches, however the name is cased, encoded or spelt', () => {
    expect(redactUrl('/v1/profiles?linkedin_url=https%3A%2F%2Fx&Email=a%40b.c&page=2')).toBe('/v1/profiles?linkedin_url=[REDACTED]&Email=[REDACTED]&page=2');
    expect(redactUrl('/x?%74oken=abc&text=hello#frag')).toBe('/x?%74oken=[REDACTED]&text=[REDACTED]#frag');
    expect(redactUrl('/v1/usage')).toBe('/v1/usage');
    expect(redactUrl('/p/pp_abc123?page=1')).toBe('/p/[REDACTED]?page=1');
    // Any other value, however the name is spelt, and a name that is not an identifier.
    expect(redactUrl('/v1/analysis/text?text[]=My%20diary&text%5B0%5D=more&txt=typo&x=1')).toBe(
      '/v1/analysis/text?text[]=[REDACTED]&text%5B0%5D=[REDACTED]&txt=[REDACTED]&x=[REDACTED]',
    );
    expect(redactUrl('/v1/analysis/text?My%20secret%20diary&with_hiring=true&=x&')).toBe('/v1/analysis/text?[REDACTED]&with_hiring=true&[REDACTED]=[REDACTED]&');
    // A bare word is a value without a name; an allowed name with a value that is not plain.
    expect(redactUrl('/v1/profiles?Marisol_Quintero&async&sort=marisol%40x.com&page=2')).toBe('/v1/profiles?[REDACTED]&async&sort=[REDACTED]&page=2');
    expect(redactUrl('/images/disc-map/0.1_0.2.svg')).toBe('/images/disc-map/0.1_0.2.svg');
    expect(redactUrl('/images/disc-map/p/Ab3_x-9.png?x=1')).toBe('/images/disc-map/p/[REDACTED]?x=[REDACTED]');
    // A person or a secret put in the path by mistake, and the page id in any case.
    expect(redactUrl('/v1/profiles/marisol%40example.com?page=1')).toBe('/v1/profiles/[REDACTED]?page=1');
    expect(redactUrl(`/v1/personality_assessments/usage/rpa_${'x'.repeat(43)}`)).toBe('/v1/personality_assessments/usage/[REDACTED]');
    expect(redactUrl('/P/pp_abc123')).toBe('/p/[REDACTED]');
    expect(redactUrl('/v1/analysis/an_4f9cAbCdEfGh1234')).toBe('/v1/analysis/an_4f9cAbCdEfGh1234');
  });
});

describe('malformed HTTP', () => {
  it('gets 400 with the error body and a request id, and the service carries on', async () => {
    const { connect } = await import('node:net');
    const url = new URL(baseUrl);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as { error: { code: string; request_id: string } };
    expect(body.error.code).toBe('bad_request');
    expect(raw).toContain(`x-request-id: ${body.error.request_id}`);
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
  });
});

describe('validation messages', () => {
  it('name nested fields by their path and use the right article', async () => {
    const { validationMessage } = await import('../../src/http/common/validation-message.ts');
    const required = { keyword: 'required', instancePath: '/person', schemaPath: '#/required', params: { missingProperty: 'email' } };
    expect(validationMessage([required], 'body')).toBe('Invalid request: body field "person.email" is required.');
    const type = { keyword: 'type', instancePath: '/person', schemaPath: '#/type', params: { type: 'object' } };
    expect(validationMessage([type], 'body')).toBe('Invalid request: body field "person" must be an object.');
    const whole = { keyword: 'type', instancePath: '', schemaPath: '#/type', params: { type: 'string' } };
    expect(validationMessage([whole], 'body')).toBe('Invalid request: the body must be a string.');
  });

  it('say what to send when a route that takes a JSON object gets no body, or gets it as plain text', async () => {
    const { createTestService } = await import('../helpers/service.ts');
    const service = await createTestService();
    try {
      const org = { 'x-org-token': (await service.token('connect')).secret };
      const response = await service.connect.inject({ method: 'POST', url: '/v1/profiles/async', headers: org });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toBe('Invalid request: the body must be a JSON object (Content-Type: application/json); none was sent, or another kind of value.');
      // JSON sent as text/plain: the Content-Type is what is wrong, and the answer says so.
      const asText = await service.connect.inject({ method: 'POST', url: '/v1/profiles', headers: { ...org, 'content-type': 'text/plain; charset=utf-8' }, payload: '{"email":"a@example.com"}' });
      expect([asText.statusCode, asText.json().error]).toEqual([
        415,
        expect.objectContaining({ code: 'unsupported_media_type', message: 'The body must be a JSON object sent with Content-Type: application/json; it came as text/plain.' }),
      ]);
      // A JSON string (not an object) sent as JSON is the usual 400: the Content-Type was right.
      const jsonString = await service.connect.inject({ method: 'POST', url: '/v1/profiles', headers: { ...org, 'content-type': 'application/json' }, payload: '"a@example.com"' });
      expect([jsonString.statusCode, jsonString.json().error.code]).toEqual([400, 'bad_request']);
      // A route that takes plain text still does.
      const enterprise = { authorization: `Bearer ${(await service.token('enterprise')).secret}` };
      const text = await service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers: { ...enterprise, 'content-type': 'text/plain' }, payload: 'Short.' });
      expect(text.statusCode).toBe(200);
    } finally {
      await service.close();
    }
  });
});
