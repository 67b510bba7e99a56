import type { FastifyInstance } from 'fastify';
import { AppError } from '../../shared/errors.ts';

/**
 * Headers every answer carries, errors included. `nosniff`: a browser takes each answer as the
 * type it is labelled with (a JSON error echoing a caller's text is never run as a script or
 * page). `DENY`: no page of this service is meant to sit in another site's frame (profile pages
 * are shared as links; a framed page could be dressed up by the framing site). Pages add
 * `frame-ancestors 'none'` to their Content-Security-Policy, which newer browsers prefer.
 */
export const COMMON_HEADERS = { 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' } as const;

export function installResponseHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-content-type-options', COMMON_HEADERS['x-content-type-options']);
    reply.header('x-frame-options', COMMON_HEADERS['x-frame-options']);
    // Node would answer this itself with a bare 400 and no body (requireHostHeader, turned off in
    // app.ts so that the refusal has the error body and request id of every other one).
    if (request.raw.httpVersionMajor === 1 && request.raw.httpVersionMinor >= 1 && request.headers.host === undefined) {
      throw new AppError('bad_request', 'The request has no Host header, which HTTP/1.1 requires: send the host and port you called.');
    }
    done();
  });
}
