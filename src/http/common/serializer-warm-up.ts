import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import type { FastifyInstance } from 'fastify';

/** A response schema that is a union of shapes (`Type.Union`: `anyOf` at its top). */
function isUnion(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && 'anyOf' in schema && Array.isArray(schema.anyOf);
}

/** The health check's path: its serializer is built before listening, like the unions'. */
const HEALTH_PATH = '/healthz';

/** A route's response serializer, as fast-json-stringify builds it. */
type Serializer = (data: unknown) => string;

/**
 * Fastify's response serializers, built on each one's first use, with one addition. Building
 * every route's serializers as the app was made cost ~0.2–0.4 s of CPU a service start (and of
 * every test that builds an app), for routes most processes never answer: each is now built when
 * its route first answers with that status, a few milliseconds once, and serialises exactly as
 * before. A response that is a union of shapes (a personality, or "no personality") picks its
 * shape by validating the value against each one, and the validators are compiled on the first
 * response: 30–80 ms of the event loop per route, paid by whoever asks first (under load, that
 * showed as the longest pause of /healthz). Such serializers are remembered here and warmed when
 * the app is ready (`warmUpSerializersWhenReady`), before it listens: warmed after listening, the
 * first health checks waited behind them. Apps that never listen (tests built with inject()) skip
 * it. Each serializer's build is also added to `compiles`, which `compileAllWhenReady`
 * (body-validation.ts) runs for an app that must build them all as it starts (the schema check
 * in the tests), so a schema fast-json-stringify refuses still fails a test.
 */
export function warmingSerializerFactory(warmUps: (() => void)[], compiles: (() => void)[] = []): SerializerFactory {
  const build = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    return (route) => {
      let built: Serializer | null = null;
      const get = (): Serializer => (built ??= compile(route));
      const serialize: Serializer = (data) => get()(data);
      compiles.push(() => void get());
      // HEAD routes (Fastify adds one per GET) are rarely asked for; they compile on first use.
      if (isUnion(route.schema) && route.method !== 'HEAD') {
        warmUps.push(() => {
          // Built outside the try: a schema fast-json-stringify refuses fails ready(), not a first answer.
          const serializer = get();
          try {
            // A value of no shape: every branch's validator is compiled while it is tried.
            serializer({});
          } catch {
            // "does not match schema definition": expected.
          }
        });
      } else if (route.url === HEALTH_PATH && route.method === 'GET') {
        // A load balancer's first probe of a new process must not wait for a compile either.
        warmUps.push(() => void get());
      }
      return serialize;
    };
  };
}

/** Runs the warm-ups as the app becomes ready: call `ready()` before `listen()` to pay for them before any request. */
export function warmUpSerializersWhenReady(app: FastifyInstance, warmUps: (() => void)[]): void {
  app.addHook('onReady', (done) => {
    try {
      for (const warmUp of warmUps.splice(0)) warmUp();
      done();
    } catch (error) {
      done(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
