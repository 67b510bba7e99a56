import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import type { FastifyInstance } from 'fastify';

/** A response schema that is a union of shapes (`Type.Union`: `anyOf` at its top). */
function isUnion(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && 'anyOf' in schema && Array.isArray(schema.anyOf);
}

/**
 * Fastify's response serializers, built as usual, with one addition. A response that is a union
 * of shapes (a personality, or "no personality") picks its shape by validating the value against
 * each one, and the validators are compiled on the first response: 30–80 ms of the event loop
 * per route, paid by whoever asks first (under load, that showed as the longest pause of
 * /healthz). Such serializers are remembered here and warmed when the app is ready
 * (`warmUpSerializersWhenReady`), before it listens: warmed after listening, the first health
 * checks waited behind them. Apps that never listen (tests built with inject()) skip it.
 */
export function warmingSerializerFactory(warmUps: (() => void)[]): SerializerFactory {
  const build = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    return (route) => {
      const serialize = compile(route);
      // HEAD routes (Fastify adds one per GET) are rarely asked for; they compile on first use.
      if (isUnion(route.schema) && route.method !== 'HEAD') {
        warmUps.push(() => {
          try {
            // A value of no shape: every branch's validator is compiled while it is tried.
            serialize({});
          } catch {
            // "does not match schema definition": expected.
          }
        });
      }
      return serialize;
    };
  };
}

/** Runs the warm-ups as the app becomes ready: call `ready()` before `listen()` to pay for them before any request. */
export function warmUpSerializersWhenReady(app: FastifyInstance, warmUps: (() => void)[]): void {
  app.addHook('onReady', (done) => {
    for (const warmUp of warmUps.splice(0)) warmUp();
    done();
  });
}
