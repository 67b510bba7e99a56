import { MAX_TEXT_CHARS } from '../analysis/analyses.ts';
import { NOT_AN_EMAIL, normalizeEmail } from '../people/normalize.ts';
import { isTextType, type TextType } from '../people/person.ts';
import type { SearchCriteria } from '../people/search.ts';
import { AppError } from '../shared/errors.ts';

/** A C1 search, read from the request: empty strings count as not given. */
export interface SearchInput extends SearchCriteria {
  textSample: string | null;
  textType: TextType | null;
}

export type SearchMode = 'sync' | 'async';

/** The C1 body's fields, as the route read them (types already checked by its schema; the route maps the contract's first_name and the rest). */
export interface SearchFields {
  firstName?: string | undefined;
  lastName?: string | undefined;
  email?: string | undefined;
  companyName?: string | undefined;
  location?: string | undefined;
  textSample?: string | undefined;
  textType?: string | undefined;
}

/**
 * Composed form (NFC): a name typed on a Mac or copied from a PDF may arrive decomposed ("e" +
 * U+0301 for "é"), and the name keys fold composed letters only.
 */
function given(value: string | undefined): string | null {
  const trimmed = value?.normalize('NFC').trim();
  return trimmed ? trimmed : null;
}

const CRITERIA: Record<SearchMode, string> = {
  sync: '"first_name" and "last_name", or "email" (optionally with "text_sample" and "text_type")',
  async: '"first_name" and "last_name", or "email", or "text_sample" with "text_type"',
};

/**
 * The contract's minimum criteria: first and last name; or email; or (sync) email with a text
 * sample, (async) a text sample alone. A text sample always needs its text_type.
 */
export function readSearch(body: SearchFields, mode: SearchMode): SearchInput {
  const input: SearchInput = {
    firstName: given(body.firstName),
    lastName: given(body.lastName),
    email: given(body.email),
    companyName: given(body.companyName),
    location: given(body.location),
    textSample: given(body.textSample),
    textType: null,
  };
  if (input.email !== null && !normalizeEmail(input.email)) throw new AppError('bad_request', NOT_AN_EMAIL);
  const textType = given(body.textType);
  if (textType !== null) {
    if (!isTextType(textType)) throw new AppError('bad_request', `"text_type" must be one of email, various, bio, resume; got "${textType.slice(0, 20)}".`);
    input.textType = textType;
  }
  if (input.textSample !== null && input.textType === null) {
    throw new AppError('bad_request', 'A "text_sample" needs its "text_type": one of email, various, bio, resume.');
  }
  if (input.textSample !== null && input.textSample.length > MAX_TEXT_CHARS) {
    throw new AppError('payload_too_large', `"text_sample" has ${input.textSample.length} characters; the limit is ${MAX_TEXT_CHARS}.`);
  }
  const names = input.firstName !== null && input.lastName !== null;
  const text = input.textSample !== null && mode === 'async';
  if (!names && input.email === null && !text) {
    const missing =
      input.firstName !== null
        ? '"last_name" is missing'
        : input.lastName !== null
          ? '"first_name" is missing'
          : input.textSample !== null
            ? 'a "text_sample" alone is searched only asynchronously (POST /v1/profiles/async)'
            : 'no search criteria were given';
    throw new AppError('bad_request', `Not enough to search by: ${missing}. Give ${CRITERIA[mode]}.`);
  }
  return input;
}

/** A stored input read back by the worker (it was written by readSearch). */
export function storedSearch(value: unknown): SearchInput | null {
  if (typeof value !== 'object' || value === null) return null;
  const field = (name: string): string | null => {
    const v: unknown = (value as Record<string, unknown>)[name];
    return typeof v === 'string' ? v : null;
  };
  const textType = field('textType');
  return {
    firstName: field('firstName'),
    lastName: field('lastName'),
    email: field('email'),
    companyName: field('companyName'),
    location: field('location'),
    textSample: field('textSample'),
    textType: isTextType(textType) ? textType : null,
  };
}
