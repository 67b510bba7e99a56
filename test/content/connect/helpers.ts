import { DISC_TYPES, pointToTraits } from '../../../src/personality/circle.ts';
import type { TraitEstimate } from '../../../src/personality/types.ts';
import type { Party } from '../../../src/content/party.ts';

/** A party at a given angle (degrees) and intensity (0–100) on the DISC circle. */
export function partyAt(firstName: string | null, angle: number, intensity = 70): Party {
  const r = intensity / 100;
  const { extraversion, agreeableness } = pointToTraits({ x: r * Math.cos((angle * Math.PI) / 180), y: r * Math.sin((angle * Math.PI) / 180) });
  const estimate: TraitEstimate = {
    scores: { extraversion, agreeableness, conscientiousness: 0, openness: 0, neuroticism: 0 },
    confidence: { extraversion: 0.6, agreeableness: 0.6, conscientiousness: 0.6, openness: 0.6, neuroticism: 0.6 },
    source: 'prediction',
    modelVersion: 'test',
    wordCount: 200,
  };
  return { firstName, estimate };
}

/** Style axes: I 45°, D 135°, C 225°, S 315°. */
export const AXIS = { I: 45, D: 135, C: 225, S: 315 } as const;
export const TYPE_ANGLES = DISC_TYPES.map((t) => t.angle);

/** Text with every tag and entity removed: what a reader sees, minus markup. */
export function visibleText(html: string): string {
  return html.replace(/<[^>]*>/g, ' ');
}

/** The only tags Connect prose may contain. */
export function tagsIn(html: string): string[] {
  return [...html.matchAll(/<\/?([a-z]+)[^>]*>/g)].map((m) => m[0]);
}

/** The same party with every trait's confidence at this level (0–1; profiles show it as 0–100). */
export function withConfidence(party: Party, confidence: number): Party {
  return {
    ...party,
    estimate: { ...party.estimate, confidence: { extraversion: confidence, agreeableness: confidence, conscientiousness: confidence, openness: confidence, neuroticism: confidence } },
  };
}
