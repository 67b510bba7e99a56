import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { redactUrl } from '../../shared/logger.ts';

/**
 * A caller's request id is kept when it has the shapes request ids come in and a secret does
 * not: a UUID or other hex id (what proxies and tracers make: nginx's $request_id, W3C trace
 * ids) up to 64 characters, or a short label of up to 31 letters, digits and `._:-`
 * ("trace-123"). Anything longer (our tokens are 47 characters, session ids 43, test links 32),
 * and anything starting like one of our tokens, gets an id of our own instead: the id is written
 * to every log line, and a token pasted into the header must not be.
 */
const HEX_ID = /^(?=[0-9A-Fa-f-]{8,64}$)[0-9A-Fa-f]+(?:-[0-9A-Fa-f]+)*$/;
const SHORT_LABEL = /^[\w.:-]{1,31}$/;
const TOKEN_LIKE = /^rp[eac]_/i;

export function isSafeRequestId(value: string): boolean {
  if (HEX_ID.test(value)) return true;
  return SHORT_LABEL.test(value) && !TOKEN_LIKE.test(value);
}

/** Keeps a caller's request id when it is safe to echo and log, otherwise makes one. */
export function requestIdFor(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  if (typeof incoming === 'string' && isSafeRequestId(incoming)) return incoming;
  return randomUUID();
}

/**
 * One line per request, with the request id and no secrets (query tokens are redacted). Hooks
 * here and in the other per-request hooks of src/http/common take `done` rather than being
 * async: an async hook costs a promise and a turn of the microtask queue on every request.
 */
export function installRequestLog(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
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
    done();
  });
}
