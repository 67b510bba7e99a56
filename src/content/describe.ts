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

/**
 * The advice follows the person's one reading (src/content/reading.ts): the direction and
 * strength of what their text says, worded as firmly as the evidence allows, the traits a
 * test measured, and the role when a title is given. Connect reads the same reading.
 */
export function describePersonality(
  phrases: PhraseLibrary,
  estimate: TraitEstimate,
  firstName?: string | null,
  options: DescribeOptions = {},
): PersonalityDescription {
  const view = personalityView(estimate);
  const reading = readEstimate(estimate, options.title ?? null);
  const content = composeProfileContent({ reading, firstName: firstName ?? null }, phrases);
  return { estimate, view, reading, content };
}
