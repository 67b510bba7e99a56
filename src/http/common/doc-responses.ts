import { Type } from 'typebox';

/*
 * Success answers that are not JSON, as a route schema hands them to the OpenAPI document.
 * Fastify serializes none of them: a page or a file is sent as text or bytes under its own
 * Content-Type, and a redirect has no body, so these schemas only describe.
 */

/** Text or the bytes read from a file, as the handler sends it; a string to the document. */
const Sent = Type.Unsafe<string | Buffer>(Type.String());

export function htmlPage(description: string) {
  return { description, content: { 'text/html': { schema: Sent } } };
}

/** A file of one of these types, the one the path names. */
export function fileResponse<T extends string>(description: string, mediaTypes: readonly T[]) {
  return { description, content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: Sent }])) };
}

export function redirect(description: string) {
  return Type.Null({ description: `${description} (Location says where)` });
}
