import type { FastifyInstance } from 'fastify';
import { AppError } from '../../shared/errors.ts';
import { findUnstorableText, type UnstorableText } from '../../shared/storable-text.ts';

const PLACES = [
  ['params', 'path parameter'],
  ['query', 'query parameter'],
  ['body', 'body field'],
] as const;

/** 'body field "texts[0].text" holds a NUL character…'; a name is quoted without its broken character. */
function refusal(place: string, found: UnstorableText): AppError {
  const where = found.path === '' ? `the ${place.split(' ')[0] ?? place}` : found.inName ? `the name of a ${place}` : `${place} "${found.path}"`;
  return new AppError('bad_request', `Invalid request: ${where} holds ${found.problem}, which no text sent here may contain.`);
}

/**
 * Every string a request carries (path, query, body, at any depth, names included) is checked
 * before any route sees it: a NUL or half a surrogate pair (src/shared/storable-text.ts) is the
 * caller's 400, naming the field, on every route, whether or not this route would store it.
 * Before, such a value reached the database and came back as a 500.
 */
export function installInputTextGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    for (const [part, place] of PLACES) {
      // A plain-text body is read by the one route that takes it (POST /v1/analysis/text), which
      // first tells a PDF sent as text where PDFs go, then checks it (checkInputText).
      if (part === 'body' && typeof request.body === 'string') continue;
      const found = findUnstorableText(request[part]);
      if (found) throw refusal(place, found);
    }
    done();
  });
}

/** The same check for text a route reads itself (a multipart field, a GET request's JSON body). */
export function checkInputText(value: unknown, place: string): void {
  const found = findUnstorableText(value);
  if (found) throw refusal(place, found);
}
