import { linkedinKey, normalizeEmail, normalizeWebUrl } from './normalize.ts';
import { isTextType, TEXT_TYPES, type PersonInput, type TextSample } from './person.ts';
import { unstorableText } from '../shared/storable-text.ts';

/**
 * Checks one incoming person (a JSON line, a CSV row, an API call) and turns it into a
 * PersonInput, or says in a few words why it cannot be stored. Limits keep one bad row from
 * bloating the table or a profile page.
 */

export const FIELD_LIMITS = {
  first_name: 200,
  last_name: 200,
  email: 254,
  linkedin_url: 2048,
  photo_url: 2048,
  company_name: 300,
  title: 300,
  location: 300,
} as const;
type ScalarField = keyof typeof FIELD_LIMITS;
export const SCALAR_FIELDS = Object.keys(FIELD_LIMITS) as ScalarField[];

export const MAX_TEXT_CHARS = 100_000;
export const MAX_TOTAL_TEXT_CHARS = 200_000;
export const MAX_TEXT_SAMPLES = 50;

export type Validated = { ok: true; input: PersonInput } | { ok: false; reason: string };

function fail(reason: string): Validated {
  return { ok: false, reason };
}

/** A string field: trimmed; empty or missing = not given. */
function readScalar(record: Record<string, unknown>, field: ScalarField): string | null | Error {
  const value = record[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') return new Error(`${field} must be a string`);
  const unstorable = unstorableText(value);
  if (unstorable !== null) return new Error(`${field} holds ${unstorable}, which the database cannot store`);
  const trimmed = value.trim();
  if (trimmed.length > FIELD_LIMITS[field]) return new Error(`${field} is longer than ${FIELD_LIMITS[field]} characters`);
  return trimmed === '' ? null : trimmed;
}

function readTexts(value: unknown): TextSample[] | Error {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return new Error('texts must be an array of {type, text}');
  if (value.length > MAX_TEXT_SAMPLES) return new Error(`more than ${MAX_TEXT_SAMPLES} texts`);
  const texts: TextSample[] = [];
  let total = 0;
  for (const [index, item] of value.entries()) {
    if (typeof item !== 'object' || item === null) return new Error(`texts[${index}] must be an object {type, text}`);
    const { type, text } = item as Record<string, unknown>;
    if (!isTextType(type)) return new Error(`texts[${index}] has unknown type ${JSON.stringify(type)} (expected ${TEXT_TYPES.join(', ')})`);
    if (typeof text !== 'string') return new Error(`texts[${index}].text must be a string`);
    const unstorable = unstorableText(text);
    if (unstorable !== null) return new Error(`texts[${index}] holds ${unstorable}, which the database cannot store`);
    if (text.length > MAX_TEXT_CHARS) return new Error(`texts[${index}] is longer than ${MAX_TEXT_CHARS} characters`);
    total += text.length;
    if (total > MAX_TOTAL_TEXT_CHARS) return new Error(`texts are longer than ${MAX_TOTAL_TEXT_CHARS} characters in all`);
    // An empty sample says nothing; dropping it keeps the content hash stable.
    if (text.trim() !== '') texts.push({ type, text });
  }
  return texts;
}

export function validatePersonRecord(record: Record<string, unknown>): Validated {
  const scalars: Partial<Record<ScalarField, string | null>> = {};
  for (const field of SCALAR_FIELDS) {
    const value = readScalar(record, field);
    if (value instanceof Error) return fail(value.message);
    scalars[field] = value;
  }
  const texts = readTexts(record.texts);
  if (texts instanceof Error) return fail(texts.message);

  const email = scalars.email ?? null;
  const url = scalars.linkedin_url ?? null;
  if (email === null && url === null) return fail('no identifier: give an email or a linkedin_url');
  const emailNormalized = email === null ? null : normalizeEmail(email);
  if (email !== null && emailNormalized === null) return fail(`bad email ${JSON.stringify(email.slice(0, 80))}`);
  const key = url === null ? null : linkedinKey(url);
  if (url !== null && key === null) return fail(`linkedin_url is not a profile URL (linkedin.com/in/…): ${JSON.stringify(url.slice(0, 80))}`);
  const rawPhoto = scalars.photo_url ?? null;
  // Photo URLs end up in <img src> and in responses that declare a URI: only web URLs (never
  // javascript: or data:), stored in the %-encoded form every response can return.
  const photo = rawPhoto === null ? null : normalizeWebUrl(rawPhoto);
  if (rawPhoto !== null && photo === null) return fail(`photo_url must be an http(s) URL: ${JSON.stringify(rawPhoto.slice(0, 80))}`);

  return {
    ok: true,
    input: {
      email,
      emailNormalized,
      // Stored as given (the import reports it in those words); read back %-encoded (repository).
      linkedinUrl: url,
      linkedinKey: key,
      firstName: scalars.first_name ?? null,
      lastName: scalars.last_name ?? null,
      photoUrl: photo,
      companyName: scalars.company_name ?? null,
      title: scalars.title ?? null,
      location: scalars.location ?? null,
      texts,
    },
  };
}
