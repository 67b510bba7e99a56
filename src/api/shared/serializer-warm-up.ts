import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import type { FastifyInstance } from 'fastify';

/** A response schema that is a union of shapes (`Type.Union`: `anyOf` at its top). */
function isUnion(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && 'anyOf' in schema && Array.isArray(schema.anyOf);
}

/**
 * Fastify's response serializers, built as usual, with one addition. A response that is a union
 * of shapes (a personality, or "no personality") picks its shape by validating the value against
 * each one, and the validators are compiled on the first response: 80 ms or more of the event
 * loop per route, paid by whoever asks first (under load, that showed as the longest pause of
 * /healthz). Such serializers are remembered here and warmed once the server listens
 * (`warmUpSerializersOnListen`); tests built with inject() never listen and never pay for it.
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

/** Runs the warm-ups once listening, one per turn of the event loop so requests interleave. */
export function warmUpSerializersOnListen(app: FastifyInstance, warmUps: (() => void)[]): void {
  app.addHook('onListen', (done) => {
    const next = () => {
      const warmUp = warmUps.shift();
      if (warmUp === undefined) return;
      warmUp();
      setImmediate(next);
    };
    setImmediate(next);
    done();
  });
}
