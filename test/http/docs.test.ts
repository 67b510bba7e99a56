import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestService } from '../helpers/service.ts';

const service = useTestService();

describe('documentation and health', () => {
  it('each host serves an OpenAPI document generated from its routes', async () => {
    const base = await service.base.inject({ url: '/openapi.json' });
    expect(base.statusCode).toBe(200);
    const baseDoc = base.json();
    expect(baseDoc.openapi).toMatch(/^3\./);
    expect(Object.keys(baseDoc.paths)).toEqual(expect.arrayContaining(['/v1/usage', '/v1/personality_assessments/usage', '/v1/personality_assessments/find', '/healthz']));
    expect(baseDoc.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });

    const connect = (await service.connect.inject({ url: '/openapi.json' })).json();
    expect(Object.keys(connect.paths)).toEqual(
      expect.arrayContaining([
        '/v1/usage',
        '/v1/profiles',
        '/v1/profiles/async',
        '/v1/profiles/results/{request_id}',
        '/v1/relationships/{profile_one}/{profile_two}',
        '/v1/messaging/{sender}/{recipient}',
        '/v1/emails/{request_id}',
        '/v1/email/{request_id}',
      ]),
    );
    expect(connect.paths['/v1/profiles'].post.requestBody.content['application/json'].schema.properties.text_type).toBeDefined();
    expect(Object.keys(connect.paths['/v1/relationships/{profile_one}/{profile_two}'])).toEqual(expect.arrayContaining(['get', 'post']));
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

  it('describes every success of every operation in words of its own, never as "Default Response"', async () => {
    for (const app of [service.base, service.connect]) {
      const doc = (await app.inject({ url: '/openapi.json' })).json();
      const paths = doc.paths as Record<string, Record<string, { responses: Record<string, { description?: string }> }>>;
      for (const [path, operations] of Object.entries(paths)) {
        for (const [method, { responses }] of Object.entries(operations)) {
          const successes = Object.entries(responses).filter(([status]) => /^[23]/.test(status));
          expect(successes.length, `${method} ${path} documents no success`).toBeGreaterThan(0);
          for (const [status, response] of Object.entries(responses)) {
            expect(response.description, `${method} ${path} ${status}`).toMatch(/\w/);
            expect(response.description, `${method} ${path} ${status}`).not.toBe('Default Response');
          }
        }
      }
    }
  });

  it('names every operation with a unique, readable operation id, and lists each API route\'s own error statuses', async () => {
    const ids: string[] = [];
    for (const app of [service.base, service.connect]) {
      const doc = (await app.inject({ url: '/openapi.json' })).json();
      const paths = doc.paths as Record<string, Record<string, { operationId?: string; responses: Record<string, { content?: unknown }> }>>;
      for (const [path, operations] of Object.entries(paths)) {
        for (const [method, { operationId, responses }] of Object.entries(operations)) {
          expect(operationId, `${method} ${path}`).toMatch(/^[a-z]+[A-Z][A-Za-z]*$/);
          // Both hosts serve /healthz and /: the same operation, the same id, in two documents.
          if (!ids.includes(String(operationId)) || !['getHealth', 'getServiceIndex', 'getImagesDiscMapByFile'].includes(String(operationId))) ids.push(String(operationId));
          if (!path.startsWith('/v1/')) continue;
          // Behind a token: a 401 and a 429 with the error body, each in the route's own words.
          for (const status of ['401', '429']) {
            expect(responses[status], `${method} ${path} ${status}`).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } });
          }
        }
      }
    }
    expect(ids.length).toBe(new Set(ids).size);
    const base = (await service.base.inject({ url: '/openapi.json' })).json();
    expect(base.paths['/v1/profiles'].get).toMatchObject({ operationId: 'getProfile', responses: { 404: { description: expect.stringMatching(/nobody is stored/) } } });
    expect(base.paths['/v1/analysis/pdf'].post.responses).toHaveProperty('413');
    const connect = (await service.connect.inject({ url: '/openapi.json' })).json();
    expect(connect.paths['/v1/emails/{request_id}'].post.operationId).toBe('createSampleEmails');
    expect(connect.paths['/v1/emails/{request_id}'].get.operationId).toBe('listSampleEmails');
    expect(connect.paths['/v1/profiles/async'].post.operationId).toBe('startProfileSearch');
  });

  it('offers the PDF upload as a file (multipart part "file", or the PDF as the body), and says what every parameter is', async () => {
    const doc = (await service.base.inject({ url: '/openapi.json' })).json();
    const upload = doc.paths['/v1/analysis/pdf'].post.requestBody;
    expect(upload.content['multipart/form-data'].schema).toMatchObject({ properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] });
    expect(upload.content['application/pdf'].schema).toMatchObject({ type: 'string', format: 'binary' });
    const undescribed: string[] = [];
    for (const app of [service.base, service.connect]) {
      const paths = (await app.inject({ url: '/openapi.json' })).json().paths as Record<string, Record<string, { parameters?: { name: string; description?: string }[] }>>;
      for (const [path, operations] of Object.entries(paths)) {
        for (const [method, { parameters = [] }] of Object.entries(operations)) {
          for (const parameter of parameters) if (!parameter.description) undescribed.push(`${method} ${path} ${parameter.name}`);
        }
      }
    }
    expect(undescribed).toEqual([]);
  });

  it("marks find's email required, as the contract does, and still answers its absence in words of its own", async () => {
    const doc = (await service.base.inject({ url: '/openapi.json' })).json();
    const parameters = doc.paths['/v1/personality_assessments/find'].get.parameters as { name: string; in: string; required: boolean }[];
    expect(parameters.find((p) => p.name === 'email')).toMatchObject({ in: 'query', required: true });
    expect(parameters.find((p) => p.name === 'options[hiring]')).toMatchObject({ in: 'query', required: false, schema: { type: 'boolean' } });
    const token = await service.token('assessment');
    for (const query of ['', '&email=', '&email=%20%20']) {
      const missing = await service.base.inject({ url: `/v1/personality_assessments/find?token=${token.secret}${query}` });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error).toMatchObject({
        code: 'bad_request',
        message: 'The query parameter "email" is required: the email the person took the test with (URL-encoded).',
      });
    }
  });

  it('has every contract route: one outside the contract is a plain 404', async () => {
    expect((await service.connect.inject({ url: '/v1/nothing' })).statusCode).toBe(404);
    expect((await service.base.inject({ url: '/v1/nothing' })).statusCode).toBe(404);
  });

  it('serves browsable docs', async () => {
    const docs = await service.base.inject({ url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toMatch(/text\/html/);
    expect(docs.body).toMatch(/swagger/i);
    // Reached over plain HTTP by address (not localhost), upgrade-insecure-requests sent every
    // asset to https and left a blank page; swagger-ui styles its elements inline.
    const policy = String(docs.headers['content-security-policy']);
    expect(policy).not.toContain('upgrade-insecure-requests');
    expect(policy).toMatch(/style-src [^;]*'unsafe-inline'/);
    expect(policy).toMatch(/script-src 'self'(;|$)/);
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
