import { beforeAll, describe, expect, it } from 'vitest';
import { OUTGOING_TEXT } from '../fixtures/texts.ts';
import { useTestService } from '../helpers/service.ts';

/** Compatibility mends found by trials: each answer names what to change. */
const service = useTestService({ PORT: '8080', CONNECT_PORT: '8081' });
let enterprise: string;
let connect: string;

beforeAll(async () => {
  enterprise = (await service.token('enterprise')).secret;
  connect = (await service.token('connect')).secret;
});

describe('JSON sent without its Content-Type (curl -d)', () => {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };

  it('is a 415 that names the missing header, not "body field text is required"', async () => {
    const text = await service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers: { ...form, authorization: `Bearer ${enterprise}` }, payload: JSON.stringify({ text: OUTGOING_TEXT }) });
    expect(text.statusCode).toBe(415);
    expect(text.json().error.message).toContain('send it with the header Content-Type: application/json');
    const search = await service.connect.inject({ method: 'POST', url: '/v1/profiles', headers: { ...form, 'x-org-token': connect }, payload: '{"first_name": "Ada", "last_name": "B&W"}' });
    expect(search.statusCode).toBe(415);
    expect(search.json().error.code).toBe('unsupported_media_type');
  });

  it('leaves a real form alone', async () => {
    const search = await service.connect.inject({ method: 'POST', url: '/v1/profiles', headers: { ...form, 'x-org-token': connect }, payload: 'first_name=Ada&last_name=Nobody' });
    expect(search.statusCode).toBe(404);
  });
});

describe('a token of the wrong kind', () => {
  it('is a 401 that names the kind the route needs and the kind sent', async () => {
    const response = await service.base.inject({ url: '/v1/usage', headers: { authorization: `Bearer ${connect}` } });
    expect(response.statusCode).toBe(401);
    const { message } = response.json().error as { message: string };
    expect(message).toContain('not valid for the Enterprise API (group A), which takes an enterprise token as "Authorization: Bearer <token>"');
    expect(message).toContain('the token sent is a connect token, for the Connect API (group C, on CONNECT_PORT)');
    const onConnect = await service.connect.inject({ url: '/v1/usage', headers: { 'x-org-token': enterprise } });
    expect(onConnect.json().error.message).toContain('the token sent is an enterprise token, for the Enterprise API');
  });
});

describe('Connect calls on the enterprise port', () => {
  it.each([
    ['POST', '/v1/profiles/async'],
    ['GET', '/v1/profiles/results/pr_0123456789abcdef'],
    ['POST', '/v1/relationships/a/b'],
    ['GET', '/v1/email/pr_0123456789abcdef'],
  ] as const)('%s %s is a 404 that says Connect lives on CONNECT_PORT', async (method, url) => {
    const response = await service.base.inject({ method, url, headers: { 'x-org-token': connect } });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toContain('Connect (group C) is served on its own port, CONNECT_PORT (8081 here)');
  });

  it('a Connect search (POST /v1/profiles) is a 405 that says the same', async () => {
    const response = await service.base.inject({ method: 'POST', url: '/v1/profiles', headers: { 'x-org-token': connect }, payload: { first_name: 'Ada', last_name: 'B' } });
    expect(response.statusCode).toBe(405);
    expect(response.json().error.message).toBe('/v1/profiles takes GET, not POST. Connect (group C) is served on its own port, CONNECT_PORT (8081 here): send this request there.');
  });

  it('says so when a Connect header comes to a route of group A', async () => {
    const response = await service.base.inject({ url: '/v1/usage', headers: { 'x-org-token': connect } });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.message).toContain("X-Org-Token is the Connect API's header, and Connect (group C) is served on its own port, CONNECT_PORT (8081 here)");
  });

  it('and group A calls on the Connect port are told where groups A and B are', async () => {
    const response = await service.connect.inject({ url: '/v1/analysis/an_x', headers: { authorization: `Bearer ${enterprise}` } });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toContain('groups A and B are served on PORT (8080 here)');
    const unknown = await service.base.inject({ url: '/v1/nope' });
    expect(unknown.json().error.message).toBe('No route for GET /v1/nope.');
  });
});
