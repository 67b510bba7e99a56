import { timingSafeEqual } from 'node:crypto';
import { AppError } from '../../shared/errors.ts';

function tokenMatches(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Why a scrape with this Authorization header is refused, or null (no RAPPORT_METRICS_TOKEN set, or the right one sent). */
export function metricsTokenRefusal(authorization: string | undefined, token: string | null): AppError | null {
  if (token === null) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (match?.[1] && tokenMatches(match[1], token)) return null;
  return new AppError('unauthorized', 'The metrics token is missing or not valid: send "Authorization: Bearer <RAPPORT_METRICS_TOKEN>".');
}
