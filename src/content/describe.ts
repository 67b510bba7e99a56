import { composeProfileContent, type ProfileContent } from './compose-profile.ts';
import type { PhraseLibrary } from './phrases.ts';
import { readEstimate, type Reading } from './reading.ts';
import { personalityView, type PersonalityView } from '../personality/views.ts';
import type { TraitEstimate } from '../personality/types.ts';

/** One personality estimate seen every way the API shows it: typologies, the reading and advice. */
export interface PersonalityDescription {
  estimate: TraitEstimate;
  view: PersonalityView;
  reading: Reading;
  content: ProfileContent;
}

export interface DescribeOptions {
  /** The person's job title, when known: advice then fits their role family too. */
  title?: string | null;
}

/** Composes a profile's content from its reading: composeProfileContent, or a cache of it. */
export type ComposeContent = (reading: Reading, firstName: string | null) => ProfileContent;

/**
 * The advice follows the person's one reading (src/content/reading.ts): the direction and
 * strength of what their text says, worded as firmly as the evidence allows, the traits a
 * test measured, and the role when a title is given. Connect reads the same reading.
 * `compose` makes the content from the reading; everything else is made fresh each time.
 */
export function describeWith(
  compose: ComposeContent,
  estimate: TraitEstimate,
  firstName?: string | null,
  options: DescribeOptions = {},
): PersonalityDescription {
  const view = personalityView(estimate);
  const reading = readEstimate(estimate, options.title ?? null);
  return { estimate, view, reading, content: compose(reading, firstName ?? null) };
}

/**
 * A description composed anew. Routes that answer for a reading use the context's
 * `descriptions` (description-cache.ts), which reuses the content of an equal reading.
 */
export function describePersonality(
  phrases: PhraseLibrary,
  estimate: TraitEstimate,
  firstName?: string | null,
  options: DescribeOptions = {},
): PersonalityDescription {
  return describeWith((reading, name) => composeProfileContent({ reading, firstName: name }, phrases), estimate, firstName, options);
}
