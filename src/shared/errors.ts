/**
 * The one error type of the domain. Domain code throws AppError with a code from this closed
 * list; the HTTP edge maps the code to a status (src/http/common/status-codes.ts) and writes the one
 * error body (src/http/common/errors.ts). Nothing here knows HTTP.
 */
export const ERROR_CODES = [
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'conflict',
  'payload_too_large',
  'headers_too_large',
  'request_timeout',
  'unsupported_media_type',
  'rate_limited',
  'quota_exceeded',
  'unavailable',
  'not_implemented',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class AppError extends Error {
  readonly code: ErrorCode;
  /** Seconds after which the caller may retry (rate limits, quotas). */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, message: string, options: { retryAfterSeconds?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/** Work refused because the service is stopping (its connections cut at SHUTDOWN_TIMEOUT): 503, not an internal error. */
export function serviceStopping(what: string): AppError {
  return new AppError('unavailable', `The service is stopping: ${what}.`, { retryAfterSeconds: 5 });
}
