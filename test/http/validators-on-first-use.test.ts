/**
 * Request validators compile on their route's first use (src/http/common/body-validation.ts):
 * a start no longer compiles every route's schemas. What this must not lose: every schema of
 * both apps still compiles (checked here, at start, as the service used to at every start), a
 * route's first request is validated and answered as every later one, and a schema Ajv refuses
 * fails loudly.
 */
import Fastify from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBaseApp, buildConnectApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createContext, type AppContext } from '../../src/context.ts';
import { validatorFactory } from '../../src/http/common/body-validation.ts';
import { runWhenReady } from '../../src/http/common/on-ready.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

/** A small app with one route whose body schema is `body`, validated as the service validates. */
function appWith(body: Record<string, unknown>, compile: 'on-first-use' | 'at-start') {
  const compiles: (() => void)[] = [];
  const app = Fastify({ schemaController: { compilersFactory: { buildValidator: validatorFactory(compiles) } } });
  if (compile === 'at-start') runWhenReady(app, [compiles]);
  app.post('/echo', { schema: { body, querystring: { type: 'object', properties: { n: { type: 'integer' } } } } }, (request) => ({ body: request.body, query: request.query }));
  return app;
}

const TEXT = { type: 'object', required: ['text'], properties: { text: { type: 'string' } }, additionalProperties: false };

describe('validators compiled on first use', () => {
  it('answer the first request as every later one: refusals with the same errors, query strings still coerced, bodies not', async () => {
    const app = appWith(TEXT, 'on-first-use');
    await app.ready();
    const answers = [];
    for (let i = 0; i < 2; i += 1) {
      answers.push(await app.inject({ method: 'POST', url: '/echo?n=7', payload: { text: 42 } }));
      answers.push(await app.inject({ method: 'POST', url: '/echo?n=7', payload: { text: 'hi' } }));
    }
    expect(answers.map((a) => a.statusCode)).toEqual([400, 200, 400, 200]);
    expect(answers[0]?.json()).toEqual({ statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'body/text must be string' });
    expect(answers[2]?.body).toBe(answers[0]?.body);
    expect(answers[1]?.json()).toEqual({ body: { text: 'hi' }, query: { n: 7 } });
    expect(answers[3]?.body).toBe(answers[1]?.body);
    await app.close();
  });

  it('a schema Ajv refuses fails ready() when validators compile at start', async () => {
    const broken = { type: 'object', properties: { text: { type: 'no-such-type' } } };
    const atStart = appWith(broken, 'at-start');
    await expect(atStart.ready()).rejects.toThrow(/no-such-type|type must be/);
    await atStart.close().catch(() => undefined);
    // On first use the same schema fails that route's requests, never validates them wrongly.
    const onFirstUse = appWith(broken, 'on-first-use');
    await onFirstUse.ready();
    expect((await onFirstUse.inject({ method: 'POST', url: '/echo', payload: { text: 'hi' } })).statusCode).toBe(500);
    await onFirstUse.close();
  });
});

describe("the service's own schemas", () => {
  let testDb: TestDb;
  let ctx: AppContext;
  let uploadDir: string;
  beforeAll(async () => {
    testDb = await createTestDb();
    uploadDir = mkdtempSync(path.join(tmpdir(), 'rapport-validators-'));
    const config = { ...loadConfig({ LOG_LEVEL: 'silent', RAPPORT_DEMO_DATA: 'false', RAPPORT_UPLOAD_DIR: uploadDir, RAPPORT_METRICS_TOKEN: 'metrics-token-for-the-test' }), databaseUrl: testDb.url };
    ctx = createContext(config, testDb.db, createLogger('silent'), { runJobs: false });
  });
  afterAll(async () => {
    await ctx.shutdown();
    await testDb.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  it('every route validator and response serializer of both apps compiles (what each start checked before)', async () => {
    for (const build of [buildBaseApp, buildConnectApp]) {
      const app = await build(ctx, { compileSchemas: 'at-start' });
      await expect(app.ready()).resolves.toBe(app);
      await app.close();
    }
  }, 60_000);
});
