import type { FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors.ts';

/** The hiring switch as callers send it: Ajv coerces only "true" and "false" to a boolean, so 1 and 0 are spelt out for it. */
const HIRING_SPELLINGS = new Map([['true', 'true'], ['false', 'false'], ['1', 'true'], ['0', 'false']]);

/**
 * Runs before the query is checked against the schema, on the values as sent. The schema says
 * `email` is required (the contract does, and so does the OpenAPI document made from it), but a
 * missing or blank email gets this route's own words rather than the generic "is required".
 * The hiring switch is read in any case ("TRUE"), and refused when given twice.
 */
export async function readFindQuery(request: FastifyRequest): Promise<void> {
  const query = request.query as Record<string, unknown> | undefined;
  if (!query) return;
  const email = query.email;
  if (email === undefined || (typeof email === 'string' && email.trim() === '')) {
    throw new AppError('bad_request', 'The query parameter "email" is required: the email the person took the test with (URL-encoded).');
  }
  const hiring = query['options[hiring]'];
  if (Array.isArray(hiring)) throw new AppError('bad_request', 'The query parameter "options[hiring]" was given more than once: give it once, true, false, 1 or 0.');
  if (typeof hiring !== 'string') return;
  const spelt = HIRING_SPELLINGS.get(hiring.toLowerCase());
  if (!spelt) throw new AppError('bad_request', 'The query parameter "options[hiring]" must be true, false, 1 or 0.');
  query['options[hiring]'] = spelt;
}
