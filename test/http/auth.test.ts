import { beforeAll, describe, expect, it } from 'vitest';
import { revokeToken } from '../../src/access/tokens.ts';
import { useTestService } from '../helpers/service.ts';

const service = useTestService();
let tokens: Record<'enterprise' | 'assessment' | 'connect', { id: string; secret: string }>;

beforeAll(async () => {
  tokens = {
    enterprise: await service.token('enterprise'),
    assessment: await service.token('assessment'),
    connect: await service.token('connect'),
  };
});

/** The usage route of each group, called with a given secret the way that group expects. */
function callUsage(group: keyof typeof tokens, secret: string | undefined) {
  if (group === 'enterprise') {
    return service.base.inject({ method: 'GET', url: '/v1/usage', headers: secret ? { authorization: `Bearer ${secret}` } : {} });
  }
  if (group === 'assessment') {
    return service.base.inject({ method: 'GET', url: `/v1/personality_assessments/usage${secret ? `?token=${encodeURIComponent(secret)}` : ''}` });
  }
  return service.connect.inject({ method: 'GET', url: '/v1/usage', headers: secret ? { 'x-org-token': secret } : {} });
}

describe('token authentication per group', () => {
  const groups = ['enterprise', 'assessment', 'connect'] as const;
  for (const group of groups) {
    for (const kind of groups) {
      it(`${kind} token on the ${group} group → ${kind === group ? 200 : 401}`, async () => {
        const response = await callUsage(group, tokens[kind].secret);
        expect(response.statusCode).toBe(kind === group ? 200 : 401);
        const body = response.json();
        if (kind === group) {
          expect(body.data.token.id).toBe(tokens[kind].id);
          expect(body.data.calls_this_month).toBeGreaterThanOrEqual(1);
        } else {
          expect(body.error.code).toBe('unauthorized');
          expect(body.error.message).toMatch(/not valid for the/);
        }
      });
    }
    it(`a missing token on the ${group} group is a 401 with the error body`, async () => {
      const response = await callUsage(group, undefined);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        error: { code: 'unauthorized', message: expect.stringMatching(/^Missing API token/), request_id: response.headers['x-request-id'] },
      });
      // The message says where this group's token goes.
      const where = { enterprise: 'Authorization: Bearer <token>', assessment: '?token=<token>', connect: 'X-Org-Token: <token>' }[group];
      expect(response.json().error.message).toContain(where);
    });
    it(`an unknown token on the ${group} group is a 401`, async () => {
      const response = await callUsage(group, 'rpe_not-a-real-token');
      expect(response.statusCode).toBe(401);
      expect(response.json().error.message).toBe('The API token is not valid.');
    });
  }

  it('a query token given twice is a 400 that says so, not a "missing" token', async () => {
    const secret = encodeURIComponent(tokens.assessment.secret);
    const response = await service.base.inject({ url: `/v1/personality_assessments/usage?token=${secret}&token=${secret}` });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe('The query parameter "token" is given more than once; send it once.');
  });

  it('a revoked token is refused at once by the process that revoked it', async () => {
    const token = await service.token('connect');
    expect((await callUsage('connect', token.secret)).statusCode).toBe(200);
    await revokeToken(service.ctx.db, token.id);
    service.ctx.auth.forget(token.id);
    const response = await callUsage('connect', token.secret);
    expect(response.statusCode).toBe(401);
    expect(response.json().error.message).toMatch(/revoked/);
  });

  it('the bearer scheme is case-insensitive but other schemes are refused', async () => {
    const lower = await service.base.inject({ url: '/v1/usage', headers: { authorization: `bearer ${tokens.enterprise.secret}` } });
    expect(lower.statusCode).toBe(200);
    const basic = await service.base.inject({ url: '/v1/usage', headers: { authorization: `Basic ${tokens.enterprise.secret}` } });
    expect(basic.statusCode).toBe(401);
  });

  it('a malformed Authorization header is told apart from a missing one, without echoing it', async () => {
    const cases: Array<[string, RegExp]> = [
      [`Basic ${tokens.enterprise.secret}`, /another scheme than Bearer/],
      [tokens.enterprise.secret, /another scheme than Bearer \(or none\)/],
      [`Bearer ${tokens.enterprise.secret} extra`, /malformed: it must be "Bearer <token>", with exactly one token/],
      ['Bearer A B', /malformed/],
      ['Bearer', /malformed/],
    ];
    for (const [header, message] of cases) {
      const response = await service.base.inject({ url: '/v1/usage', headers: { authorization: header } });
      expect(response.statusCode).toBe(401);
      const error = response.json().error;
      expect(error.code).toBe('unauthorized');
      expect(error.message).toMatch(message);
      expect(error.message).not.toMatch(/Missing/);
      expect(error.message).not.toContain(tokens.enterprise.secret);
    }
    const missing = await service.base.inject({ url: '/v1/usage' });
    expect(missing.json().error.message).toMatch(/^Missing API token/);
  });

  it('every response carries a request id, and a safe incoming one is kept', async () => {
    const mine = await service.base.inject({ url: '/healthz', headers: { 'x-request-id': 'trace-123' } });
    expect(mine.headers['x-request-id']).toBe('trace-123');
    const unsafe = await service.base.inject({ url: '/healthz', headers: { 'x-request-id': 'bad id <script>' } });
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const missing = await service.connect.inject({ url: '/v1/nope' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toEqual({ code: 'not_found', message: 'No route for GET /v1/nope.', request_id: missing.headers['x-request-id'] });
  });
});
