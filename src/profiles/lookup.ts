import type { Queryable } from '../db/client.ts';
import { findPersonByEmail, findPersonByLinkedinUrl, findPersonByPublicId, type Person } from '../people/repository.ts';
import { AppError } from '../shared/errors.ts';

/**
 * Finds a stored person by email or professional-network URL (any spelling of either). When
 * both are given, the email is tried first, then the URL.
 */
export async function lookupPerson(db: Queryable, query: { email?: string | undefined; linkedinUrl?: string | undefined }): Promise<Person> {
  const email = query.email?.trim();
  const url = query.linkedinUrl?.trim();
  if (!email && !url) throw new AppError('bad_request', 'Give the person\'s "email" or "linkedin_url" (or both).');
  const person = (email ? await findPersonByEmail(db, email) : null) ?? (url ? await findPersonByLinkedinUrl(db, url) : null);
  if (!person) throw new AppError('not_found', 'No person in the dataset matches this email or URL.');
  return person;
}

export async function personForPage(db: Queryable, publicId: string): Promise<Person | null> {
  if (!/^[\w-]{1,64}$/.test(publicId)) return null;
  return findPersonByPublicId(db, publicId);
}
