import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { ErrorCode } from '../../shared/errors.ts';
import { sizeText } from '../../shared/size.ts';
import { COMMON_HEADERS } from './response-headers.ts';
import { STATUS_BY_CODE } from './status-codes.ts';

/**
 * Request line and headers together, at most. Node's default (16 KB) cuts GET
 * /v1/analysis/text off at about 2,000 words; 64 KB carries about 8,000 words of URL-encoded
 * English. Longer texts belong in a POST body.
 */
export const MAX_HEADER_BYTES = 64 * 1024;

function describe(nodeCode: string | undefined): [ErrorCode, string] {
  switch (nodeCode) {
    case 'HPE_HEADER_OVERFLOW':
      return ['headers_too_large', `The URL and headers are larger than ${sizeText(MAX_HEADER_BYTES)}. Send long texts in the body of POST /v1/analysis/text.`];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return ['request_timeout', 'The request did not arrive in time.'];
    default:
      return ['bad_request', 'The request is not valid HTTP.'];
  }
}

const COMMON_LINES = Object.entries(COMMON_HEADERS)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('');

/**
 * Errors Node's HTTP parser raises before Fastify sees a request (a URL or headers over the
 * limit, malformed HTTP). Fastify's default answers them with a body of its own; this one
 * answers with the service's error body and a request id like every other error.
 */
export function clientErrorHandler(logger: FastifyBaseLogger): (error: Error & { code?: string }, socket: Socket) => void {
  return (error, socket) => {
    // The peer is gone: nothing can be written.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [code, message] = describe(error.code);
    const requestId = randomUUID();
    const status = STATUS_BY_CODE[code];
    const body = JSON.stringify({ error: { code, message, request_id: requestId } });
    logger.info({ request_id: requestId, status, reason: error.code ?? error.message }, 'rejected before routing');
    if (socket.writable) {
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\n${COMMON_LINES}Connection: close\r\n\r\n${body}`,
      );
    }
    socket.destroySoon();
  };
}
