import type { ErrorCode } from '../../shared/errors.ts';

/** The HTTP status of each domain error code (a file of its own: the operations thread needs it without Fastify). */
export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  headers_too_large: 431,
  request_timeout: 408,
  unsupported_media_type: 415,
  rate_limited: 429,
  quota_exceeded: 429,
  unavailable: 503,
  not_implemented: 501,
  internal: 500,
};
