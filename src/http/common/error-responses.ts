import type { ErrorCode } from '../../shared/errors.ts';
import { STATUS_BY_CODE } from './status-codes.ts';

/**
 * The error answers a route can give, for its schema's `response`: each status with the one
 * error body (ErrorBody) and what it means there, so the OpenAPI document lists every route's
 * errors and a generated client types them. The document adds 4XX and 5XX for the rest
 * (openapi.ts): a 405, 408 or 431, an internal error or a 503, which any route can give.
 */
const MEANING: Partial<Record<ErrorCode, string>> = {
  bad_request: 'bad_request: a parameter or the body is missing or not valid; the message names it',
  unauthorized: 'unauthorized: no token, or one that is not valid, revoked, or for another API (the message names the kind needed)',
  forbidden: 'forbidden: the token may not do this',
  not_found: 'not_found: nothing of yours under this id',
  conflict: 'conflict: the state does not allow it now',
  payload_too_large: 'payload_too_large: the body is over the limit the message names',
  unsupported_media_type: 'unsupported_media_type: the body came under another Content-Type than the route takes',
  rate_limited: 'rate_limited or quota_exceeded: over the per-minute rate or the monthly quota; Retry-After says when to try again',
  quota_exceeded: 'rate_limited or quota_exceeded: over the per-minute rate or the monthly quota; Retry-After says when to try again',
  unavailable: 'unavailable: busy or stopping; Retry-After says when to try again',
};

export interface ErrorResponse {
  description: string;
  $ref: 'ErrorBody#';
}

/**
 * `errorResponses(['bad_request', 'unauthorized', 'rate_limited'])`, with a route's own words
 * for a status where the general ones say too little (`{ not_found: 'Nobody stored under it' }`).
 */
export function errorResponses(codes: readonly ErrorCode[], specific: Partial<Record<ErrorCode, string>> = {}): Record<number, ErrorResponse> {
  const responses: Record<number, ErrorResponse> = {};
  for (const code of codes) {
    const status = STATUS_BY_CODE[code];
    const meaning = specific[code] ?? MEANING[code] ?? code;
    const earlier = responses[status]?.description;
    responses[status] = { description: earlier && !earlier.includes(meaning) ? `${earlier}; ${meaning}` : meaning, $ref: 'ErrorBody#' };
  }
  return responses;
}

/** What every route behind a token can answer: a missing or wrong token, and the token's limits. */
export const TOKEN_ERRORS: readonly ErrorCode[] = ['unauthorized', 'rate_limited'];
