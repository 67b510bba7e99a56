import { composeProfileContent, type ProfileContent } from '../content/compose-profile.ts';
import { personalityView, type PersonalityView } from '../personality/views.ts';
import type { TraitEstimate } from '../personality/types.ts';

/** One personality estimate seen every way the API shows it: typologies and advice. */
export interface PersonalityDescription {
  estimate: TraitEstimate;
  view: PersonalityView;
  content: ProfileContent;
}

export interface DescribeOptions {
  /** The person's job title, when known: advice then fits their role family too. */
  title?: string | null;
}

/**
 * The advice follows the whole estimate: the exact point, how sure it is (thin evidence reads
 * as a blend), the traits the point leaves out, and the role when a title is given.
 */
export function describePersonality(
  estimate: TraitEstimate,
  firstName?: string | null,
  options: DescribeOptions = {},
): PersonalityDescription {
  const view = personalityView(estimate);
  const content = composeProfileContent({
    point: view.point,
    firstName: firstName ?? null,
    confidence: view.confidence,
    traits: estimate.scores,
    traitsMeasured: estimate.source === 'assessment',
    title: options.title ?? null,
  });
  return { estimate, view, content };
}
