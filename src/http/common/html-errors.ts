import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppError, ErrorCode } from '../../shared/errors.ts';
import { APP_PAGE_CSP, renderMessagePage } from '../../pages/app-shell.ts';
import { requestPath } from './route-methods.ts';
import { STATUS_BY_CODE } from './status-codes.ts';

/** Paths of the API and of files: their errors are always the JSON error body, whatever a client accepts. */
const MACHINE_PATHS = /^\/(?:v1(?:\/|$)|openapi\.json$|healthz$|metrics$|images\/|assets\/|docs\/static\/|favicon\.ico$)/;

/** The weight a client gives a media type in its Accept header (0 when it is not named, not even by a wildcard). */
function weightOf(accept: string, type: string): { q: number; named: boolean } {
  let best = { q: 0, named: false };
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.trim().toLowerCase().split(';');
    const q = Number(params.map((p) => p.trim()).find((p) => p.startsWith('q='))?.slice(2) ?? '1');
    const weight = Number.isFinite(q) ? q : 0;
    const [major] = type.split('/');
    if (range === type) return { q: weight, named: true };
    if ((range === `${major}/*` || range === '*/*') && weight > best.q) best = { q: weight, named: false };
  }
  return best;
}

/**
 * True when the client asks for a page: it names text/html in its Accept header and weighs it
 * no lower than JSON. Browsers do; curl (`*\/*`), fetch and API clients do not, and keep getting
 * JSON from the same URL.
 */
export function prefersHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (typeof accept !== 'string') return false;
  const html = weightOf(accept, 'text/html');
  if (!html.named || html.q === 0) return false;
  const json = weightOf(accept, 'application/json');
  return html.q >= json.q;
}

/** A browser asking for a page of the service (not the API, a file or the metrics): it gets the error as a page. */
export function wantsErrorPage(request: FastifyRequest): boolean {
  return !MACHINE_PATHS.test(requestPath(request.url)) && prefersHtml(request);
}

const TITLES: Partial<Record<ErrorCode, string>> = {
  not_found: 'Page not found',
  forbidden: 'Not allowed',
  unauthorized: 'Please log in',
  rate_limited: 'Too many attempts',
  bad_request: 'Something is not right',
  method_not_allowed: 'Not allowed here',
  unavailable: 'Busy right now',
  internal: 'Something went wrong on our side',
};

/** The one branded error page, with the status the API would give and its request id. */
export function sendErrorPage(request: FastifyRequest, reply: FastifyReply, error: AppError, message = error.message): FastifyReply {
  const status = STATUS_BY_CODE[error.code];
  const said = error.code === 'internal' ? `The service could not answer this request. If it happens again, give the service's operator this reference: ${request.id}.` : message;
  reply.header('x-request-id', request.id);
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', APP_PAGE_CSP)
    .send(renderMessagePage(TITLES[error.code] ?? 'Something went wrong', said, undefined, status));
}
