import type { FastifyReply } from 'fastify';
import { AppError } from '../../shared/errors.ts';

/**
 * The Content-Type Fastify gives a JSON answer it serialises itself. A route that sends bytes it
 * serialised ahead (with `reply.serialize`, its own response schema) labels them the same, so
 * the answer is the one Fastify would have sent, header included; Fastify sends a string with a
 * JSON type as it is.
 */
export const JSON_UTF8 = 'application/json; charset=utf-8';

/** The route's own serialiser's bytes for `payload` (its response schema for the reply's status). */
export function serializedBy(reply: FastifyReply, payload: unknown): string {
  const body = reply.serialize(payload);
  if (typeof body !== 'string') throw new AppError('internal', 'A response schema serialised an answer to something other than text.');
  return body;
}

/** Sends bytes from `serializedBy` (or kept from it) as they are, labelled as Fastify labels JSON. */
export function sendSerialized(reply: FastifyReply, body: string): FastifyReply {
  return reply.type(JSON_UTF8).send(body);
}
