import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import type { AppContext } from '../../src/context.ts';
import { healthRoute } from '../../src/http/common/health.ts';
import { runWhenReady } from '../../src/http/common/on-ready.ts';
import { noteSerializersBuiltBeforeListening, warmingSerializerFactory } from '../../src/http/common/serializer-warm-up.ts';

const Found = Type.Object({ data: Type.Object({ name: Type.String(), score: Type.Number() }) });
const NotFound = Type.Object({ data: Type.Null(), message: Type.String() });

/** An app whose serializer factory knows the routes that ask for their serializers before listening. */
function appNotingEarlyBuilds() {
  const warmUps: (() => void)[] = [];
  const builtBeforeListening = new Set<string>();
  const app = Fastify({ schemaController: { compilersFactory: { buildSerializer: warmingSerializerFactory(warmUps, [], builtBeforeListening) } } });
  noteSerializersBuiltBeforeListening(app, builtBeforeListening);
  return { app, warmUps, builtBeforeListening };
}

async function appWith(warmUps: (() => void)[], warm: boolean, compiles: (() => void)[] = []) {
  const app = Fastify({ schemaController: { compilersFactory: { buildSerializer: warmingSerializerFactory(warmUps, compiles) } } });
  if (warm) runWhenReady(app, [warmUps]);
  app.get('/union/:name', { schema: { response: { 200: Type.Union([Found, NotFound]) } } }, async (request) => {
    const { name } = request.params as { name: string };
    return name === 'nobody' ? { data: null, message: 'not found', secret: 'x' } : { data: { name, score: 3, secret: 'x' } };
  });
  app.get('/plain', { schema: { response: { 200: Found } } }, async () => ({ data: { name: 'a', score: 1, secret: 'x' } }));
  await app.ready();
  return app;
}

describe('response serializers warmed before the server listens', () => {
  it('remembers the union responses of GET only (not HEAD, not plain shapes)', async () => {
    const warmUps: (() => void)[] = [];
    const app = await appWith(warmUps, false);
    expect(warmUps).toHaveLength(1);
    await app.close();
  });

  it('runs the warm-ups at ready(), so the first request after listen finds them done', async () => {
    const warmUps: (() => void)[] = [];
    const app = await appWith(warmUps, true);
    try {
      expect(warmUps).toHaveLength(0);
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      // Both shapes still serialise, and only their declared fields.
      const found = await (await fetch(`http://127.0.0.1:${port}/union/ann`)).json();
      expect(found).toEqual({ data: { name: 'ann', score: 3 } });
      const missing = await (await fetch(`http://127.0.0.1:${port}/union/nobody`)).json();
      expect(missing).toEqual({ data: null, message: 'not found' });
    } finally {
      await app.close();
    }
  });

  it('leaves the warm-ups alone where not asked for (apps built for inject())', async () => {
    const warmUps: (() => void)[] = [];
    const app = await appWith(warmUps, false);
    const response = await app.inject({ url: '/union/bo' });
    expect(response.json()).toEqual({ data: { name: 'bo', score: 3 } });
    expect(warmUps).toHaveLength(1);
    await app.close();
  });

  it('builds each serializer on its first use: the first answer is serialised as every later one, undeclared fields dropped', async () => {
    const compiles: (() => void)[] = [];
    const app = await appWith([], false, compiles);
    // One build waiting for each response schema (GET and the HEAD Fastify adds, for both routes).
    expect(compiles).toHaveLength(4);
    const answers = [await app.inject({ url: '/plain' }), await app.inject({ url: '/plain' })];
    expect(answers.map((a) => a.json())).toEqual([{ data: { name: 'a', score: 1 } }, { data: { name: 'a', score: 1 } }]);
    expect(answers[1]?.body).toBe(answers[0]?.body);
    // Building them all at once (an app asked to compile every schema at start) works after that too.
    for (const compile of compiles) compile();
    expect((await app.inject({ url: '/union/cy' })).json()).toEqual({ data: { name: 'cy', score: 3 } });
    await app.close();
  });

  it('builds the serializer of a route that asks for it (the health check) at ready() too, with the unions', async () => {
    const { app, warmUps } = appNotingEarlyBuilds();
    const config = { buildSerializerBeforeListening: true };
    app.get('/healthz', { schema: { response: { 200: Type.Object({ status: Type.String() }) } }, config }, async () => ({ status: 'ok', extra: 1 }));
    app.get('/other', { schema: { response: { 200: Type.Object({ status: Type.String() }) } } }, async () => ({ status: 'ok' }));
    await app.ready();
    // GET /healthz only: not its HEAD, not another plain route.
    expect(warmUps).toHaveLength(1);
    expect((await app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    await app.close();
  });

  it("the service's health check asks for it", async () => {
    const { app, warmUps, builtBeforeListening } = appNotingEarlyBuilds();
    // The route reads only the database's kind and whether it answers.
    const ctx = { db: { kind: 'embedded', ping: async () => undefined } };
    await app.register(healthRoute, { ctx: ctx as unknown as AppContext });
    await app.ready();
    expect([...builtBeforeListening]).toEqual(['GET /healthz', 'HEAD /healthz']);
    expect(warmUps).toHaveLength(1);
    expect((await app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok', database: 'embedded' });
    await app.close();
  });

  it('fails ready() when a union serializer cannot be built, instead of a first answer', async () => {
    const warmUps: (() => void)[] = [];
    const app = Fastify({ schemaController: { compilersFactory: { buildSerializer: warmingSerializerFactory(warmUps) } } });
    runWhenReady(app, [warmUps]);
    // A reference to a schema nobody added: fast-json-stringify refuses to build it.
    const broken = { anyOf: [{ $ref: 'missing#' }, NotFound] };
    app.get('/broken', { schema: { response: { 200: broken } } }, async () => ({ data: null, message: 'x' }));
    await expect(app.ready()).rejects.toThrow();
    await app.close().catch(() => undefined);
  });
});
