import { parse as parseQueryString } from 'node:querystring';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors.ts';
import { sizeText } from '../../shared/size.ts';

/**
 * What one route's body may hold. Every route that takes a body declares it (`acceptsBody`),
 * sized to what its form or JSON needs, and a body past a cap is refused with 413 before it is
 * parsed: bytes by the declared length, or as they arrive (Fastify's bodyLimit); form fields by
 * counting the separators; JSON nesting by one pass over the text. Parsing a 12 MB form of a
 * million fields held the event loop for seconds; no body a route takes costs more than a few
 * milliseconds to refuse or read.
 */
export interface BodyCaps {
  /** Bytes, as sent (before decoding). */
  bytes: number;
  /** Fields of an urlencoded form (a repeated name counts each time). */
  fields: number;
  /** Nesting of JSON objects and arrays: `{"text": "…"}` is 1. */
  depth: number;
  /** False for a route that reads nothing from its body: an empty JSON body there is no body. */
  reads: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set through acceptsBody / acceptsNoBody; routes without it take the no-body caps. */
    bodyCaps?: BodyCaps;
  }
}

/**
 * Routes that declare nothing (GETs, and POSTs that read no body: relationships, emails) accept
 * a small body and ignore it, so a client that always sends `{}` or a few form fields works.
 */
export const NO_BODY: BodyCaps = { bytes: 1024, fields: 8, depth: 4, reads: false };

/**
 * Bytes a body carrying `chars` characters of text needs, whatever the encoding: a character
 * takes up to 9 bytes %-encoded in a form (3 UTF-8 bytes, each %XX), 6 as a JSON escape
 * (\uXXXX), plus room for the other fields.
 */
export function textBodyBytes(chars: number): number {
  return chars * 9 + 16 * 1024;
}

/** The route options that declare a body: Fastify's own limit on bytes, and the caps the parsers read. */
export function acceptsBody(caps: Partial<BodyCaps> & Pick<BodyCaps, 'bytes'>, ceiling: number): { bodyLimit: number; config: { bodyCaps: BodyCaps } } {
  // BODY_LIMIT stays the ceiling over every route's own cap.
  const bodyCaps: BodyCaps = { fields: 16, depth: 4, reads: true, ...caps, bytes: Math.min(caps.bytes, ceiling) };
  return { bodyLimit: bodyCaps.bytes, config: { bodyCaps } };
}

export function capsOf(request: FastifyRequest): BodyCaps {
  return request.routeOptions.config.bodyCaps ?? NO_BODY;
}

/** The 413 for a body past its byte cap, naming this route's cap (not the service-wide BODY_LIMIT). */
export function bodyTooLarge(bytes: number): AppError {
  return new AppError('payload_too_large', `The request body is larger than this endpoint takes (${sizeText(bytes)}).`);
}

/** 1 + the number of `&`: the fields a form would parse into, counted without parsing it. */
function countFormFields(body: string): number {
  if (body === '') return 0;
  let fields = 1;
  for (let at = body.indexOf('&'); at >= 0; at = body.indexOf('&', at + 1)) fields++;
  return fields;
}

/** How many times `char` occurs in `text`, counting no further than `limit` (indexOf runs natively). */
function countUpTo(text: string, char: string, limit: number): number {
  let count = 0;
  for (let at = text.indexOf(char); at >= 0 && count <= limit; at = text.indexOf(char, at + 1)) count++;
  return count;
}

/** Whether JSON text nests objects and arrays deeper than `max`, in one pass (strings skipped). */
export function nestsDeeperThan(text: string, max: number): boolean {
  // Usually settled without the pass: fewer openings than the cap cannot nest deeper than it.
  const openings = countUpTo(text, '{', max);
  if (openings + countUpTo(text, '[', max - openings) <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

type JsonParse = (request: FastifyRequest, body: string, done: (error: Error | null, value?: unknown) => void) => void;

/**
 * Whether a JSON body is empty (only whitespace), after refusing one that nests deeper than the
 * route's cap: checked on the text, so a body of a million `[` never reaches the parser.
 */
export function isEmptyJson(text: string, caps: BodyCaps): boolean {
  if (text.trim() === '') return true;
  if (nestsDeeperThan(text, caps.depth)) {
    throw new AppError('payload_too_large', `The JSON body nests objects or arrays more than ${caps.depth} levels deep; this endpoint takes at most ${caps.depth}.`);
  }
  return false;
}

/**
 * Replaces Fastify's JSON parser and @fastify/formbody with parsers that apply each route's caps
 * before parsing. JSON is then parsed by Fastify's own parser (prototype-poisoning checks kept).
 */
export function installBodyParsers(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error') as unknown as JsonParse;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const caps = capsOf(request);
    const text = typeof body === 'string' ? body : body.toString('utf8');
    let empty: boolean;
    try {
      empty = isEmptyJson(text, caps);
    } catch (error) {
      return done(error as Error, undefined);
    }
    // A route that reads no body: an empty one is no body (clients that always send the header).
    if (empty && !caps.reads) return done(null, undefined);
    if (empty) return done(new AppError('bad_request', 'The body is empty but Content-Type says JSON.'), undefined);
    parseJson(request, text, done);
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, body, done) => {
    const caps = capsOf(request);
    const text = typeof body === 'string' ? body : body.toString('utf8');
    const fields = countFormFields(text);
    if (fields > caps.fields) {
      return done(new AppError('payload_too_large', `The form has ${fields} fields; this endpoint takes at most ${caps.fields}.`), undefined);
    }
    // Fields are counted above, so maxKeys never cuts a form short here.
    done(null, parseQueryString(text, '&', '=', { maxKeys: caps.fields + 1 }));
  });
}
