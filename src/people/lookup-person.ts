import type { PersonLookups } from './lookups.ts';
import { NOT_AN_EMAIL_IN_QUERY } from './normalize.ts';
import { batchKeyOf, type PersonSummary } from './repository.ts';
import { AppError } from '../shared/errors.ts';

const NOT_A_PROFILE_URL = 'The linkedin_url given is not a LinkedIn profile URL (like https://www.linkedin.com/in/name).';

/**
 * Finds a stored person by email or professional-network URL (any spelling of either). When
 * both are given, the email is tried first, then the URL.
 */
export async function lookupPerson(people: PersonLookups, query: { email?: string | undefined; linkedinUrl?: string | undefined }): Promise<PersonSummary> {
  const email = query.email?.trim();
  const url = query.linkedinUrl?.trim();
  if (!email && !url) throw new AppError('bad_request', 'Give the person\'s "email" or "linkedin_url" (or both).');
  // Normalised once: a key that cannot name anyone is null here and never reaches the database.
  const byEmail = email ? batchKeyOf({ email }) : null;
  const byUrl = url ? batchKeyOf({ linkedinUrl: url }) : null;
  // A malformed address or URL is the caller's mistake to hear about, not a person we do not
  // know; while the other key can still name someone it is tried, as when one matches nobody.
  if (!byEmail && !byUrl) {
    throw new AppError('bad_request', [email ? NOT_AN_EMAIL_IN_QUERY : '', url ? NOT_A_PROFILE_URL : ''].filter((m) => m !== '').join(' '));
  }
  const person = (byEmail ? await people.byKey(byEmail) : null) ?? (byUrl ? await people.byKey(byUrl) : null);
  if (!person) throw new AppError('not_found', 'No person in the dataset matches this email or URL.');
  return person;
}

export async function personForPage(people: PersonLookups, publicId: string): Promise<PersonSummary | null> {
  if (!/^[\w-]{1,64}$/.test(publicId)) return null;
  return people.summary({ publicId });
}
