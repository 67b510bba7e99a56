import type { FastifyRequest } from 'fastify';
import type { DiscPoint } from '../../personality/types.ts';
import { discMapKey } from '../../web/disc-map.ts';

/**
 * Links in responses are absolute: the configured public URL, or else the scheme and host the
 * request came to (set PUBLIC_BASE_URL behind a proxy that rewrites the host).
 */
export function publicBase(request: FastifyRequest, configured: string | null): string {
  if (configured) return configured;
  return `${request.protocol}://${request.host}`;
}

export function discMapUrl(base: string, point: DiscPoint): string {
  return `${base}/images/disc-map/${discMapKey(point)}.svg`;
}

export function profilePageUrl(base: string, publicId: string): string {
  return `${base}/p/${encodeURIComponent(publicId)}`;
}
