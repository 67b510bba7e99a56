/**
 * How far a predicted personality may stand from the population average, given how much text
 * it rests on. Pure; applied once, where a text estimate is made (text/index.ts analyzeText) or
 * combined (combine.ts), so every view of the estimate (the DISC point, intensity, percentages,
 * type strength, trait levels) shows the same honest figure.
 *
 * A reading of n words is the writer's stable position plus noise that shrinks with n. With
 * the prior at the centre (the population average), the posterior mean is the reading times its
 * reliability, which for noise falling as 1/n is n / (n + k) (Spearman-Brown): k is the number
 * of words at which the text says as much as the prior, so half of a reading of k words is kept.
 *
 * k comes from the essays: two disjoint runs of L words of the same essay are two readings of
 * one writer; the slope of one on the other is the reliability at L (held-out, `npm run eval`,
 * "shown intensity by text length"). Measured 0.26 at 50 words, 0.35 at 100, 0.41 at 200 and
 * 0.49 at 300. k = 300 matches the lengths profiles mostly rest on (200–600 words: bios,
 * resumes, essays; the whole 629-word essay's reliability, from its halves, is 0.64 against
 * 0.68 here) and shrinks short texts more than measured, where the reading is also least
 * valid (training/EXPERIMENTS.md, "Shown intensity").
 *
 * A personality test is a measurement, not a reading of text: it is never shrunk.
 */

import { TRAITS, type Trait, type TraitEstimate, type TraitScores } from './types.ts';

/** Words at which a text carries as much weight as the prior (see above). */
export const PRIOR_WORDS = 300;

/** Share of a text reading kept, in [0, 1): n / (n + PRIOR_WORDS); 0 for no words. */
export function evidenceWeight(words: number): number {
  const n = Number.isFinite(words) ? Math.max(0, words) : 0;
  return n / (n + PRIOR_WORDS);
}

/**
 * The version a stored text estimate is made under (people.model_version): the model's version
 * and the shrink constant, the two things that make an estimate from a text. `rapport profiles
 * recompute` finds profiles made under any other version out of date, so a change of
 * PRIOR_WORDS reaches stored profiles as a new model does, without `--all`. Profiles stored
 * before the shrink carry the bare model version and are out of date too. Change the suffix
 * whenever anything else changes how an estimate is made from the model's output.
 */
export function estimateVersion(modelVersion: string): string {
  return `${modelVersion}+shrink${PRIOR_WORDS}`;
}

/**
 * A trait of a text's reading before shrinking: the score over the weight it was shrunk by (a
 * test, and an estimate stored before shrinking, have no weight and are read as they are). The
 * shown point is this one pulled toward the centre; advice reads the direction and strength of
 * the text itself from it (src/content/reading.ts), combine.ts combines two readings with it.
 */
export function unshrunkTrait(estimate: TraitEstimate, trait: Trait): number {
  const score = Number.isFinite(estimate.scores[trait]) ? estimate.scores[trait] : 0;
  const weight = estimate.evidenceWeight;
  return weight !== undefined && Number.isFinite(weight) && weight > 0 ? score / weight : score;
}

/** Every trait of the reading before shrinking (unshrunkTrait), each within [-1, 1]. */
export function unshrunkScores(estimate: TraitEstimate): TraitScores {
  const scores = {} as TraitScores;
  for (const trait of TRAITS) scores[trait] = Math.max(-1, Math.min(1, unshrunkTrait(estimate, trait)));
  return scores;
}
