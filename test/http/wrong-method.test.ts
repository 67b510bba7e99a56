import { describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { useTestService } from '../helpers/service.ts';

const service = useTestService();

async function call(app: FastifyInstance, method: InjectOptions['method'], url: string, headers: Record<string, string> = {}) {
  const response = await app.inject({ method, url, headers });
  return { status: response.statusCode, allow: response.headers.allow, requestId: response.headers['x-request-id'], body: method === 'HEAD' ? null : response.json() };
}

describe('a path called with a method it does not take', () => {
  it('is a 405 with Allow and the one error body, saying which methods the path takes', async () => {
    const answer = await call(service.base, 'POST', '/v1/profiles');
    expect(answer.status).toBe(405);
    expect(answer.allow).toBe('GET, HEAD');
    // A Connect search sent to the enterprise port: the answer says where Connect is.
    expect(answer.body).toEqual({
      error: { code: 'method_not_allowed', message: '/v1/profiles takes GET, not POST. Connect (group C) is served on its own port, CONNECT_PORT (8081 here): send this request there.', request_id: answer.requestId },
    });
  });

  it('answers the same with a token, without one, or with one of another group: the method is refused before any token is read', async () => {
    const enterprise = await service.token('enterprise');
    const connect = await service.token('connect');
    const headerSets: Record<string, string>[] = [{}, { authorization: `Bearer ${enterprise.secret}` }, { authorization: `Bearer ${connect.secret}` }];
    for (const headers of headerSets) {
      const answer = await call(service.base, 'DELETE', '/v1/analysis/text', headers);
      expect(answer.status).toBe(405);
      expect(answer.allow).toBe('GET, HEAD, POST');
      expect(answer.body.error.message).toBe('/v1/analysis/text takes GET or POST, not DELETE.');
    }
  });

  it('matches paths with parameters, on each host by its own routes', async () => {
    const cases: [FastifyInstance, InjectOptions['method'], string, string][] = [
      [service.connect, 'DELETE', '/v1/relationships/pr_one/pr_two', 'GET, HEAD, POST'],
      [service.connect, 'PUT', '/v1/messaging/pr_one/pr_two', 'GET, HEAD, POST'],
      [service.connect, 'POST', '/v1/profiles/results/pr_one', 'GET, HEAD'],
      [service.connect, 'POST', '/v1/email/pr_one', 'GET, HEAD'],
      [service.connect, 'GET', '/v1/profiles', 'POST'],
      [service.connect, 'GET', '/v1/profiles/async', 'POST'],
      [service.base, 'PATCH', '/v1/analysis/an_123', 'GET, HEAD'],
      [service.connect, 'HEAD', '/v1/profiles/async', 'POST'],
    ];
    for (const [app, method, url, allow] of cases) {
      const answer = await call(app, method, url);
      expect({ method, url, status: answer.status, allow: answer.allow }).toEqual({ method, url, status: 405, allow });
    }
    // GET /v1/analysis/pdf is GET /v1/analysis/:id with the id "pdf": a route that exists, so it
    // asks for its token first, then says the upload takes POST.
    expect((await call(service.base, 'GET', '/v1/analysis/pdf')).status).toBe(401);
    const enterprise = await service.token('enterprise');
    const upload = await call(service.base, 'GET', '/v1/analysis/pdf', { authorization: `Bearer ${enterprise.secret}` });
    expect([upload.status, upload.allow, upload.body.error.code]).toEqual([405, 'POST', 'method_not_allowed']);
    expect(upload.body.error.message).toContain('/v1/analysis/pdf takes POST, not GET');
  });

  it('gives a path registered as it is its own methods only, and leaves a route that found nothing a 404', async () => {
    // /v1/analysis/:id matches /v1/analysis/pdf too, but GET there is refused: Allow says POST.
    const put = await call(service.base, 'PUT', '/v1/analysis/pdf');
    expect([put.status, put.allow]).toEqual([405, 'POST']);
    // swagger-ui's static files: the route exists for GET, the file does not.
    for (const method of ['GET', 'HEAD'] as const) {
      const missing = await call(service.base, method, '/docs/static/no-such-file.js');
      expect([method, missing.status, missing.allow]).toEqual([method, 404, undefined]);
    }
  });

  it('counts a 405 in the metrics under the path it was made on, not among unknown URLs', async () => {
    await call(service.connect, 'PATCH', '/v1/messaging/pr_one/pr_two');
    await call(service.base, 'DELETE', '/v1/analysis/pdf?x=1');
    await call(service.base, 'PUT', '/v1/nowhere');
    const metrics = await service.ctx.metrics.text();
    expect(metrics).toContain('rapport_http_requests_total{group="connect",route="/v1/messaging/:sender/:recipient",method="PATCH",status="405"} 1');
    expect(metrics).toContain('rapport_http_requests_total{group="enterprise",route="/v1/analysis/pdf",method="DELETE",status="405"} 1');
    expect(metrics).toContain('rapport_http_requests_total{group="web",route="unmatched",method="PUT",status="404"} 1');
    expect(metrics).not.toMatch(/route="unmatched",method="\w+",status="405"/);
  });

  it('reads an escaped path as the router does', async () => {
    const answer = await call(service.base, 'POST', '/v1/profile%73');
    expect([answer.status, answer.allow]).toEqual([405, 'GET, HEAD']);
    const encodedSlash = await call(service.base, 'POST', '/v1/profiles%2Fx');
    expect(encodedSlash.status).toBe(404);
    // A malformed escape is the router's 400, as on every path.
    expect((await call(service.base, 'POST', '/v1/profile%zz')).status).toBe(400);
  });

  it('names the path without its query string', async () => {
    const answer = await call(service.base, 'POST', '/v1/personality_assessments/find?token=secret&email=a%40example.org');
    expect(answer.status).toBe(405);
    expect(answer.body.error.message).toBe('/v1/personality_assessments/find takes GET, not POST.');
  });

  it('leaves paths no route serves a 404, whatever the method', async () => {
    for (const [app, method, url] of [
      [service.base, 'POST', '/v1/nothing'],
      [service.base, 'GET', '/v1/profiles/'],
      [service.connect, 'GET', '/v1/relationships/pr_one'],
      [service.connect, 'DELETE', '/v1/relationships/pr_one/pr_two/extra'],
      [service.connect, 'GET', '/v1/personality_assessments/find'],
    ] as const) {
      const answer = await call(app, method, url);
      expect({ url, status: answer.status, allow: answer.allow, code: answer.body?.error.code }).toEqual({ url, status: 404, allow: undefined, code: 'not_found' });
    }
  });
});
