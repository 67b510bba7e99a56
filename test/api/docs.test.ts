import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestService, type TestService } from '../helpers/service.ts';

let service: TestService;
beforeAll(async () => {
  service = await createTestService();
});
afterAll(() => service.close());

describe('documentation and health', () => {
  it('each host serves an OpenAPI document generated from its routes', async () => {
    const base = await service.base.inject({ url: '/openapi.json' });
    expect(base.statusCode).toBe(200);
    const baseDoc = base.json();
    expect(baseDoc.openapi).toMatch(/^3\./);
    expect(Object.keys(baseDoc.paths)).toEqual(expect.arrayContaining(['/v1/usage', '/v1/personality_assessments/usage', '/v1/personality_assessments/find', '/healthz']));
    expect(baseDoc.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });

    const connect = (await service.connect.inject({ url: '/openapi.json' })).json();
    expect(Object.keys(connect.paths)).toContain('/v1/usage');
    expect(Object.keys(connect.paths)).not.toContain('/v1/personality_assessments/usage');
    expect(connect.components.securitySchemes.orgToken).toMatchObject({ in: 'header', name: 'X-Org-Token' });
  });

  it('every operation documents the one error body, and the document carries the package version', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const app of [service.base, service.connect]) {
      const doc = (await app.inject({ url: '/openapi.json' })).json();
      expect(doc.info.version).toBe(version);
      expect(doc.components.schemas.ErrorBody.properties.error.required).toEqual(['code', 'message', 'request_id']);
      const operations = Object.values(doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>).flatMap((path) => Object.values(path));
      expect(operations.length).toBeGreaterThan(2);
      for (const { responses } of operations) {
        for (const range of ['4XX', '5XX']) {
          expect(responses[range]).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } });
        }
      }
    }
  });

  it('contract routes not built yet answer 501 with the error body, not a 404 that means "nobody found"', async () => {
    const calls = [
      service.connect.inject({ method: 'POST', url: '/v1/profiles', payload: {} }),
      service.connect.inject({ url: '/v1/profiles/results/req_1' }),
      service.connect.inject({ method: 'GET', url: '/v1/relationships/a/b' }),
      service.connect.inject({ method: 'POST', url: '/v1/messaging/a/b', payload: { text: 'hi' } }),
      service.connect.inject({ method: 'GET', url: '/v1/email/req_1' }),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.statusCode).toBe(501);
      expect(response.json().error).toMatchObject({ code: 'not_implemented' });
      expect(response.json().error.message).toContain('not built in this version');
    }
    // A route outside the contract is still a plain 404.
    expect((await service.connect.inject({ url: '/v1/nothing' })).statusCode).toBe(404);
  });

  it('serves browsable docs', async () => {
    const docs = await service.base.inject({ url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toMatch(/text\/html/);
    expect(docs.body).toMatch(/swagger/i);
  });

  it('/healthz reports a reachable database', async () => {
    const health = await service.connect.inject({ url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok', database: process.env.DATABASE_URL ? 'postgres' : 'embedded' });
  });

  it('the bare address of each host points to the docs', async () => {
    for (const app of [service.base, service.connect]) {
      const index = await app.inject({ url: '/' });
      expect(index.statusCode).toBe(200);
      expect(index.json()).toMatchObject({ service: 'Rapport', docs: '/docs', openapi: '/openapi.json', health: '/healthz' });
    }
    expect((await service.connect.inject({ url: '/' })).json().api).toMatch(/Connect/);
  });
});
