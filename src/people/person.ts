import type { TraitEstimate } from '../personality/types.ts';
import { TEXT_TYPES, type TextType } from '../personality/text/genre.ts';

/** Kinds of text sample a person can carry: the kinds of writing the text model reads (genre.ts). */
export { TEXT_TYPES, type TextType };

export function isTextType(value: unknown): value is TextType {
  return TEXT_TYPES.some((t) => t === value);
}

export interface TextSample {
  type: TextType;
  text: string;
}

/** Where a person came from. */
export type PersonSource = 'import' | 'demo' | 'assessment';

export interface Person {
  id: string;
  /** Unguessable; the key of the profile page URL. */
  publicId: string;
  email: string | null;
  emailNormalized: string | null;
  linkedinUrl: string | null;
  linkedinKey: string | null;
  firstName: string | null;
  lastName: string | null;
  photoUrl: string | null;
  companyName: string | null;
  title: string | null;
  location: string | null;
  texts: TextSample[];
  /** Null: no personality (too little or unusable text). */
  estimate: TraitEstimate | null;
  modelVersion: string | null;
  verified: boolean;
  source: string;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * One person as an import row or a caller gives it, already validated (src/people/validate.ts).
 * Null means "not given": an upsert keeps what is stored for it.
 */
export type PersonInput = Pick<
  Person,
  'email' | 'emailNormalized' | 'linkedinUrl' | 'linkedinKey' | 'firstName' | 'lastName' | 'photoUrl' | 'companyName' | 'title' | 'location'
> & {
  /** Empty: none given (the stored texts and estimate stay). */
  texts: TextSample[];
};
