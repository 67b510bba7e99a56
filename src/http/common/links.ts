import type { FastifyRequest } from 'fastify';
import type { DiscPoint } from '../../personality/types.ts';
import { AppError } from '../../shared/errors.ts';
import { discMapKey } from '../../pages/disc-map.ts';

/**
 * Links in responses are absolute: the configured public URL, or else the scheme and host the
 * request came to (set PUBLIC_BASE_URL behind a proxy that rewrites the host).
 */
export function publicBase(request: FastifyRequest, configured: string | null): string {
  if (configured) return configured;
  // The Host header is the caller's to write: anything but a host name (and port) would
  // make links like "http:///p/…" or break out of the URL.
  const host = request.host.replace(/\.(?=:\d+$|$)/, '');
  if (!HOST.test(host)) {
    throw new AppError('bad_request', 'The Host header is missing or is not a host name, and links in the answer are built from it.');
  }
  return `${request.protocol}://${host}`;
}

/**
 * A host name or IPv4 address (underscores allowed: container names such as rapport_api), or a
 * bracketed IPv6 address, with an optional port. A fully qualified name's final dot is dropped.
 */
const HOST = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,251}[A-Za-z0-9_])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

export function discMapUrl(base: string, point: DiscPoint): string {
  return `${base}/images/disc-map/${discMapKey(point)}.svg`;
}

/** A stored person's own map: it answers 404 once the person is deleted (api/web/person-disc-map.ts). */
export function personDiscMapUrl(base: string, publicId: string): string {
  return `${base}/images/disc-map/p/${encodeURIComponent(publicId)}.svg`;
}

export function profilePageUrl(base: string, publicId: string): string {
  return `${base}/p/${encodeURIComponent(publicId)}`;
}

/**
 * The other host of this service as a browser would reach it, for the start page's links: the
 * configured public URL, else the host the request came to on the other port. Null where
 * neither can be told (port 0: a test's random port).
 */
export function otherHostBase(request: FastifyRequest, configured: string | null, port: number): string | null {
  if (configured) return configured;
  if (port === 0) return null;
  try {
    const url = new URL(publicBase(request, null));
    url.port = String(port);
    return url.origin;
  } catch {
    return null;
  }
}
