import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import type { FastifyInstance } from 'fastify';
import type { ReadyTask } from './on-ready.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Build this route's response serializers as the app becomes ready, before it listens, as
     * the unions' are: a route that must answer a new process's first request quickly (the
     * health check a load balancer probes) sets it.
     */
    buildSerializerBeforeListening?: boolean;
  }
}

/** A response schema that is a union of shapes (`Type.Union`: `anyOf` at its top). */
function isUnion(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && 'anyOf' in schema && Array.isArray(schema.anyOf);
}

/** What Fastify hands the serializer factory: its `serializerOpts`, fast-json-stringify's options. */
type SerializerOptions = Parameters<SerializerFactory>[1];

/** A route's response serializer, as fast-json-stringify builds it. */
type Serializer = (data: unknown) => string;

/**
 * The serializer options with the validators of union shapes compiled without Ajv's optimising
 * pass: that pass (dead branches and unused names dropped from the generated source) was ~20–30 %
 * of the unions' warm-up at each start, ~0.1–0.2 s of CPU, and changes neither which shape a
 * value matches nor, once V8 has compiled them, how fast a validator runs (~0.33 µs a call either
 * way). The validators are used only to pick a shape, never shown.
 */
function withUnoptimisedValidators(options: SerializerOptions): SerializerOptions {
  return { ...options, ajv: { ...options?.ajv, code: { ...options?.ajv?.code, optimize: false } } };
}

/** How a route is named to the serializer factory: Fastify hands it the method (or methods) and URL, not the route's options. */
function routeKeys(method: string | string[], url: string): string[] {
  return [method].flat().map((one) => `${one} ${url}`);
}

/**
 * Notes in `routes` each route declared with `config.buildSerializerBeforeListening`, for
 * `warmingSerializerFactory`, which sees only its method and URL. Call it before routes are declared.
 */
export function noteSerializersBuiltBeforeListening(app: FastifyInstance, routes: Set<string>): void {
  app.addHook('onRoute', (route) => {
    if (route.config?.buildSerializerBeforeListening === true) for (const key of routeKeys(route.method, route.url)) routes.add(key);
  });
}

/**
 * Fastify's response serializers, built on each one's first use, with one addition. Building
 * every route's serializers as the app was made cost ~0.2–0.4 s of CPU a service start (and of
 * every test that builds an app), for routes most processes never answer: each is now built when
 * its route first answers with that status, a few milliseconds once, and serialises exactly as
 * before. A response that is a union of shapes (a personality, or "no personality") picks its
 * shape by validating the value against each one, and the validators are compiled on the first
 * response: 30–80 ms of the event loop per route, paid by whoever asks first (under load, that
 * showed as the longest pause of /healthz). Such serializers, and those of the routes noted in
 * `builtBeforeListening` (noteSerializersBuiltBeforeListening), are queued in `warmUps`, which
 * the app runs as it becomes ready (on-ready.ts), before it listens: warmed after listening, the
 * first health checks waited behind them. Apps that never listen (tests built with inject()) skip
 * it. Each serializer's build is also queued in `compiles`, for an app that must build them all
 * as it starts (the schema check in the tests), so a schema fast-json-stringify refuses still
 * fails a test.
 */
export function warmingSerializerFactory(warmUps: ReadyTask[], compiles: ReadyTask[] = [], builtBeforeListening: ReadonlySet<string> = new Set()): SerializerFactory {
  const build = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, withUnoptimisedValidators(options));
    return (route) => {
      let built: Serializer | null = null;
      const get = (): Serializer => (built ??= compile(route));
      const serialize: Serializer = (data) => get()(data);
      compiles.push(() => void get());
      // HEAD routes (Fastify adds one per GET) are rarely asked for; they compile on first use.
      if (route.method === 'HEAD') return serialize;
      if (isUnion(route.schema)) {
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
      } else if (routeKeys(route.method, route.url).some((key) => builtBeforeListening.has(key))) {
        warmUps.push(() => void get());
      }
      return serialize;
    };
  };
}
