import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { STATUS_BY_CODE } from '../common/status-codes.ts';
import { AppError, isAppError } from '../../shared/errors.ts';
import { APP_PAGE_CSP, renderMessagePage } from '../../pages/app-shell.ts';

/** Any urlencoded form: values are strings, or lists when a name repeats. */
export const FormBody = Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())]));
export type Form = Record<string, string | string[]>;

/** One text field of a form; a repeated name is refused rather than guessed at. */
export function field(form: Form | undefined, name: string): string {
  const value = form?.[name];
  if (Array.isArray(value)) throw new AppError('bad_request', `The form field "${name}" is given more than once.`);
  return value ?? '';
}

export function sendHtml(reply: FastifyReply, html: string, status = 200): FastifyReply {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', APP_PAGE_CSP)
    .header('x-frame-options', 'DENY')
    .send(html);
}

const TITLES: Partial<Record<string, string>> = {
  forbidden: 'Not allowed',
  not_found: 'Not found',
  rate_limited: 'Too many attempts',
  bad_request: 'Something is not right',
  unauthorized: 'Please log in',
  conflict: 'Already done',
};

/**
 * Pages answer errors as pages, with the status the API would give. Errors that are not ours
 * (a bug, the database down) go on to the service's handler, which logs them.
 */
export function htmlErrorHandler(error: unknown, _request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const validation = typeof error === 'object' && error !== null && 'validation' in error;
  if (validation) return sendHtml(reply, renderMessagePage('Something is not right', 'The form was not complete or not valid. Go back and try again.', undefined, 400), 400);
  if (!isAppError(error) || error.code === 'internal') throw error;
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  return sendHtml(reply, renderMessagePage(TITLES[error.code] ?? 'Something went wrong', error.message, undefined, STATUS_BY_CODE[error.code]), STATUS_BY_CODE[error.code]);
}
