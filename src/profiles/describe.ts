import { composeProfileContent, type ProfileContent } from '../content/compose-profile.ts';
import { personalityView, type PersonalityView } from '../personality/views.ts';
import type { TraitEstimate } from '../personality/types.ts';

/** One personality estimate seen every way the API shows it: typologies and advice. */
export interface PersonalityDescription {
  estimate: TraitEstimate;
  view: PersonalityView;
  content: ProfileContent;
}

export function describePersonality(estimate: TraitEstimate, firstName?: string | null): PersonalityDescription {
  const view = personalityView(estimate);
  return { estimate, view, content: composeProfileContent({ point: view.point, firstName: firstName ?? null }) };
}
