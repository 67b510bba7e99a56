/**
 * Other typologies derived from the traits and the DISC type (docs/architecture.md, "The DISC circle").
 * Pure and total: every input, including NaN scores, yields a valid answer.
 */
import type { DiscType } from './circle.ts';
import type { Trait, TraitScores } from './types.ts';

/**
 * Four letters from four traits (McCrae & Costa 1989 report |r| ≈ .44–.74 for these pairs).
 * The first letter of each pair needs a score strictly above 0; a score of exactly 0 (the
 * population average) or NaN goes to the second letter: I, S, T, P. Ties therefore read as
 * the quieter, more conventional preference, and the same scores always give the same type.
 */
export function myersBriggs(scores: TraitScores): string {
  return [
    scores.extraversion > 0 ? 'E' : 'I',
    scores.openness > 0 ? 'N' : 'S',
    scores.agreeableness > 0 ? 'F' : 'T',
    scores.conscientiousness > 0 ? 'J' : 'P',
  ].join('');
}

/** A condition on one trait: 'above' means score > threshold, 'below' means score < threshold. */
interface TraitCondition {
  trait: Trait;
  side: 'above' | 'below';
  threshold: number;
}

/** One row of the Enneagram table: all conditions must hold (none = the family default). */
interface EnneagramRule {
  when: readonly TraitCondition[];
  type: number;
}

const above = (trait: Trait, threshold = 0.25): TraitCondition => ({ trait, side: 'above', threshold });
const below = (trait: Trait, threshold = -0.25): TraitCondition => ({ trait, side: 'below', threshold });

/**
 * Enneagram by DISC type, first matching row wins, the last row of each list is unconditional.
 *
 * Reasoning. The DISC type already carries extraversion and agreeableness (they place the
 * point), so the family picks the candidates and the other three traits choose between them:
 * - D family (assertive, outgoing): 8 Challenger by default; 3 Achiever when conscientious
 *   (drive channelled into goals); next to I, open-minded ones read as 7 Enthusiast; next to
 *   C, conscientious ones read as 1 Reformer (exacting standards).
 * - I family (sociable, upbeat): 7 Enthusiast by default; 3 Achiever when conscientious;
 *   next to S, the warm helper 2.
 * - S family (calm, accommodating): 9 Peacemaker by default; 6 Loyalist when anxious
 *   (neuroticism high); 4 Individualist when anxious and open (inward, emotional, original);
 *   next to I, the warm helper 2 unless very calm.
 * - C family (reserved, exacting): 1 Reformer when conscientious, 5 Investigator when open,
 *   6 Loyalist when anxious; next to S, 4 when anxious and open.
 * Associations follow the published Big Five correlates of the Enneagram types
 * (e.g. 8: low agreeableness; 7: extraversion and openness; 6 and 4: neuroticism;
 * 5: introversion and openness; 1 and 3: conscientiousness; 9: agreeableness, low neuroticism).
 */
export const ENNEAGRAM_TABLE: Readonly<Record<DiscType, readonly EnneagramRule[]>> = {
  DI: [
    { when: [above('conscientiousness')], type: 3 },
    { when: [above('openness')], type: 7 },
    { when: [], type: 8 },
  ],
  Di: [
    { when: [above('conscientiousness', 0)], type: 3 },
    { when: [], type: 8 },
  ],
  D: [
    { when: [above('conscientiousness', 0.4)], type: 3 },
    { when: [], type: 8 },
  ],
  Dc: [
    { when: [above('conscientiousness')], type: 1 },
    { when: [], type: 8 },
  ],
  CD: [
    { when: [above('neuroticism')], type: 6 },
    { when: [above('openness')], type: 5 },
    { when: [], type: 1 },
  ],
  Cd: [
    { when: [above('openness')], type: 5 },
    { when: [], type: 1 },
  ],
  C: [
    { when: [above('neuroticism')], type: 6 },
    { when: [above('conscientiousness', 0)], type: 1 },
    { when: [], type: 5 },
  ],
  Cs: [
    { when: [above('neuroticism'), above('openness')], type: 4 },
    { when: [above('conscientiousness')], type: 1 },
    { when: [], type: 6 },
  ],
  SC: [
    { when: [above('neuroticism'), above('openness')], type: 4 },
    { when: [above('neuroticism')], type: 6 },
    { when: [], type: 9 },
  ],
  Sc: [
    { when: [above('neuroticism')], type: 6 },
    { when: [], type: 9 },
  ],
  S: [
    { when: [above('neuroticism')], type: 6 },
    { when: [], type: 9 },
  ],
  Si: [
    { when: [below('neuroticism')], type: 9 },
    { when: [], type: 2 },
  ],
  IS: [
    { when: [above('openness')], type: 7 },
    { when: [], type: 2 },
  ],
  Is: [
    { when: [above('conscientiousness')], type: 3 },
    { when: [above('neuroticism')], type: 2 },
    { when: [], type: 7 },
  ],
  I: [
    { when: [above('conscientiousness')], type: 3 },
    { when: [], type: 7 },
  ],
  Id: [
    { when: [above('openness'), below('conscientiousness', 0)], type: 7 },
    { when: [], type: 3 },
  ],
};

function holds(condition: TraitCondition, scores: TraitScores): boolean {
  const value = scores[condition.trait];
  // NaN fails both comparisons, so a missing score falls through to the family default.
  return condition.side === 'above' ? value > condition.threshold : value < condition.threshold;
}

/** Enneagram type 1–9 from the DISC type and traits, via ENNEAGRAM_TABLE. */
export function enneagramType(code: DiscType, scores: TraitScores): number {
  const rules = ENNEAGRAM_TABLE[code];
  const match = rules.find((rule) => rule.when.every((condition) => holds(condition, scores)));
  // Every list ends with an unconditional row; 9 is only a guard for a malformed table.
  return match?.type ?? 9;
}

/** Rapport's own name for each DISC type. */
export const ARCHETYPES: Readonly<Record<DiscType, string>> = {
  DI: 'Trailblazer',
  Di: 'Pacesetter',
  D: 'Commander',
  Dc: 'Strategist',
  CD: 'Examiner',
  Cd: 'Engineer',
  C: 'Scholar',
  Cs: 'Custodian',
  SC: 'Anchor',
  Sc: 'Steward',
  S: 'Companion',
  Si: 'Confidant',
  IS: 'Connector',
  Is: 'Cheerleader',
  I: 'Catalyst',
  Id: 'Persuader',
};

export function archetypeName(code: DiscType): string {
  return ARCHETYPES[code];
}
