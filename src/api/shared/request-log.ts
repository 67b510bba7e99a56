import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { redactUrl } from '../../shared/logger.ts';

const SAFE_REQUEST_ID = /^[\w.:-]{1,64}$/;

/** Keeps a caller's request id when it is safe to echo, otherwise makes one. */
export function requestIdFor(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  if (typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming)) return incoming;
  return randomUUID();
}

/** One line per request, with the request id and no secrets (query tokens are redacted). */
export function installRequestLog(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: redactUrl(request.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        token_id: request.apiToken?.id,
      },
      'request',
    );
  });
}
