import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { Type } from 'typebox';
import { AppError, ERROR_CODES, isAppError } from '../../shared/errors.ts';
import { redactUrl } from '../../shared/logger.ts';
import { bodyTooLarge } from './body-caps.ts';
import { multipartLimitError } from './multipart.ts';
import { COMMON_HEADERS } from './response-headers.ts';
import { sendErrorPage, wantsErrorPage } from './html-errors.ts';
import { recordRouteMethods, requestPath, type RouteMethods } from './route-methods.ts';
import { STATUS_BY_CODE } from './status-codes.ts';
import { validationMessage } from './validation-message.ts';

/** The one error body of every 4xx and 5xx answer. */
export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      // The closed list, so a generated client types the code (clients/typescript).
      code: Type.String({ enum: [...ERROR_CODES], description: 'Stable machine-readable code' }),
      message: Type.String({ description: 'What went wrong, for a person' }),
      request_id: Type.String(),
    }),
  },
  { $id: 'ErrorBody', description: 'Error body shared by every 4xx and 5xx response' },
);

/** Fastify's own errors (parsing, limits, validation) translated into our codes and words. */
function fromFastifyError(error: FastifyError, request: FastifyRequest): AppError {
  // The route's own cap (src/http/common/body-caps.ts), BODY_LIMIT at most.
  const tooLarge = () => bodyTooLarge(request.routeOptions.bodyLimit);
  // A JSON object expected and plain text sent (curl -d without -H 'Content-Type: …' sends a
  // form, some clients text/plain): the Content-Type is the problem, so the answer names it.
  const first = error.validation?.[0];
  const sentAs = (request.headers['content-type'] ?? 'none').split(';')[0]?.trim() ?? 'none';
  const sentJson = /^application\/([\w.+-]+\+)?json$/i.test(sentAs);
  if (first?.keyword === 'type' && first.instancePath === '' && error.validationContext === 'body' && typeof request.body === 'string' && request.body.length > 0 && !sentJson) {
    return new AppError('unsupported_media_type', `The body must be a JSON object sent with Content-Type: application/json; it came as ${sentAs}.`);
  }
  if (error.validation) return new AppError('bad_request', validationMessage(error.validation, error.validationContext));
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupported_media_type', 'Unsupported Content-Type; send application/json, or the type the endpoint documents at /docs.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('bad_request', 'The body is empty but Content-Type says JSON.');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError('unsupported_media_type', 'This endpoint expects multipart/form-data.');
  }
  const multipartLimit = multipartLimitError(error);
  if (multipartLimit) return multipartLimit;
  // The body stopped arriving: the client closed the connection, or the server cut a stalled
  // upload off at REQUEST_TIMEOUT (the client got its 408 already). The client's doing, not ours.
  if ((error.code === 'ECONNRESET' && error.message === 'aborted') || error.code === 'ERR_STREAM_PREMATURE_CLOSE') {
    return new AppError('bad_request', 'The request body ended before its declared length: the connection was closed or timed out.');
  }
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return new AppError('bad_request', 'The body is not valid JSON.');
  }
  const status = error.statusCode ?? 500;
  if (status === 413) return tooLarge();
  if (status === 415) return new AppError('unsupported_media_type', error.message);
  if (status >= 400 && status < 500) return new AppError('bad_request', error.message);
  return new AppError('internal', 'Unexpected error. The request id identifies it in the service log.', { cause: error });
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  const status = STATUS_BY_CODE[error.code];
  // Set here too: an error raised before the request-log hook runs must still carry its id.
  reply.header('x-request-id', request.id);
  reply.headers(COMMON_HEADERS);
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  return reply.status(status).type('application/json; charset=utf-8').send({
    error: { code: error.code, message: error.message, request_id: request.id },
  });
}

/** Ids and path segments this service hands out are far shorter; Fastify's router stops at 100. */
const MAX_SEGMENT = 100;

/**
 * URLs the router refuses before any route or hook runs (a segment over 100 characters, a
 * broken %-escape) get the same error body, request id header and log line as the rest.
 */
export const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (error, request, reply) => {
  const refused =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new AppError('not_found', `Nothing here: a part of the path is longer than any id this service gives out (${MAX_SEGMENT} characters).`)
      : error.code === 'FST_ERR_BAD_URL'
        ? new AppError('bad_request', 'The URL is not valid: it holds a malformed %-escape.')
        : new AppError('internal', 'Unexpected error. The request id identifies it in the service log.', { cause: error });
  const level = refused.code === 'internal' ? 'error' : 'info';
  request.log[level]({ method: request.method, url: redactUrl(request.url), status: STATUS_BY_CODE[refused.code], code: error.code }, 'request refused by the router');
  sendError(request, reply, refused);
};

/** PostgreSQL text cannot hold NUL, so a %00 anywhere in the URL is refused before it reaches a query. */
function installNulGuard(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.url.includes('%00') || request.url.includes('\0')) {
      throw new AppError('bad_request', 'The URL holds a NUL character (%00), which no parameter may contain.');
    }
    done();
  });
}

/**
 * Returns the routes' methods as registered, which the request metrics label 405s with.
 * `hint`: what a 404 adds when the route lives elsewhere (the other port: wrong-door.ts).
 */
export function installErrorHandling(app: FastifyInstance, hint: (method: string, path: string) => string | null = () => null): RouteMethods {
  installNulGuard(app);
  app.addSchema(ErrorBody);
  app.setErrorHandler((raw: FastifyError, request, reply) => {
    const error = isAppError(raw) ? raw : fromFastifyError(raw, request);
    if (error.code === 'internal') request.log.error({ err: raw }, 'unexpected error');
    // A page's own errors are pages (src/http/web/forms.ts); one it could not handle is too.
    if (wantsErrorPage(request)) return sendErrorPage(request, reply, error);
    return sendError(request, reply, error);
  });
  const routes = recordRouteMethods(app);
  app.setNotFoundHandler((request, reply) => {
    const path = requestPath(request.url);
    const allowed = routes.allowedFor(path);
    // A route of this method that found nothing (a missing file under /docs/static/*) is a 404 too.
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const elsewhere = allowed.includes(method) ? null : hint(request.method, path);
    const also = elsewhere ? ` ${elsewhere}` : '';
    if (allowed.length === 0 || allowed.includes(method)) {
      // A browser that opens an address nothing serves gets the branded page, an API client the error body.
      if (wantsErrorPage(request)) return sendErrorPage(request, reply, new AppError('not_found', 'There is nothing at this address. Check the link, or start again from the start page.'));
      return sendError(request, reply, new AppError('not_found', `No route for ${request.method} ${path}.${also}`));
    }
    // The path exists under other methods. Answered before any token is checked, like the 404:
    // which methods a path takes is public already (the OpenAPI document), so this tells nothing.
    reply.header('allow', allowed.join(', '));
    return sendError(request, reply, new AppError('method_not_allowed', `${path} takes ${spokenMethods(allowed)}, not ${request.method}.${also}`));
  });
  return routes;
}

/** "GET", "GET or POST": HEAD goes unsaid beside GET (it is GET without the body); `Allow` still lists it. */
function spokenMethods(allowed: readonly string[]): string {
  const said = allowed.includes('GET') ? allowed.filter((m) => m !== 'HEAD') : allowed;
  return said.length > 1 ? `${said.slice(0, -1).join(', ')} or ${said.at(-1) ?? ''}` : said.join('');
}
