import type { components } from './generated/base.ts';

/** The closed list of error codes every error body carries (the service's ErrorBody). */
export type ErrorCode = components['schemas']['ErrorBody']['error']['code'];

/**
 * A refusal or failure the service answered with its error body: the HTTP status, the body's
 * code and message, and the request id that finds it in the service's log. `code` is
 * `unexpected_response` when the answer was not Rapport's error body (a proxy's page).
 */
export class RapportError extends Error {
  override readonly name = 'RapportError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'unexpected_response',
    message: string,
    readonly requestId: string | null,
    /** Seconds, from Retry-After (429, 503). */
    readonly retryAfter: number | null,
  ) {
    super(message);
  }
}

function isErrorBody(body: unknown): body is components['schemas']['ErrorBody'] {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const error = (body as { error: unknown }).error;
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' && typeof (error as { message?: unknown }).message === 'string';
}

/** The error of a non-2xx answer, from its body as openapi-fetch read it (JSON, or text). */
export function errorOf(response: Response, body: unknown): RapportError {
  const retry = Number(response.headers.get('retry-after'));
  const retryAfter = Number.isFinite(retry) && response.headers.has('retry-after') ? retry : null;
  if (isErrorBody(body)) return new RapportError(response.status, body.error.code, body.error.message, body.error.request_id ?? null, retryAfter);
  const text = typeof body === 'string' ? body.slice(0, 200) : '';
  return new RapportError(response.status, 'unexpected_response', `HTTP ${response.status} without Rapport's error body${text ? `: ${text}` : ''}`, null, retryAfter);
}

/** A search or analysis still processing when the caller's time ran out (it goes on: ask again later). */
export class StillProcessingError extends Error {
  override readonly name = 'StillProcessingError';
  constructor(readonly id: string, waitedMs: number) {
    super(`${id} is still processing after ${waitedMs} ms; ask for it again later.`);
  }
}
