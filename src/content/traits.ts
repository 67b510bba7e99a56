/**
 * The traits the DISC point leaves out (openness, conscientiousness, neuroticism) as levels a
 * phrase can be written for. A trait counts only where its own confidence is strong (a
 * personality test's measure; README.md, "What a reading claims"): the text model of this
 * version reads openness of 0.6 or more into nearly every writer's prose and neuroticism of −0.7
 * or less, which would give every text profile the same trait sentences and claims.
 */
import { unshrunkScores } from '../personality/shrink.ts';
import type { TraitEstimate, TraitScores } from '../personality/types.ts';

export const OTHER_TRAITS = ['openness', 'conscientiousness', 'neuroticism'] as const;
export type OtherTrait = (typeof OTHER_TRAITS)[number];
/**
 * A trait's end, and how clearly: a phrase written for "high" fits everyone at the high end,
 * one written for "very high" only those clearly there, who get it before the general one.
 * "Slightly" high or low is a lean short of a marked level: its phrases are tentative ("may",
 * "seems") and fit only the lean, not the marked levels beyond it.
 */
export const TRAIT_LEVELS = ['very high', 'high', 'slightly high', 'slightly low', 'low', 'very low'] as const;
export type TraitLevel = (typeof TRAIT_LEVELS)[number];
export type TraitLevels = Partial<Record<OtherTrait, TraitLevel>>;

/** High or low from ±0.3 (scores spread evenly over the population: about a third each side). */
export const TRAIT_LEVEL_THRESHOLD = 0.3;
/** "Very" high or low from ±0.6. */
export const TRAIT_CLEAR_THRESHOLD = 0.6;
/** A lean ("slightly") from ±0.15 to ±0.3. */
export const TRAIT_LEAN_THRESHOLD = 0.15;

/**
 * A trait's own confidence (0–1) from which its level shapes advice: what a completed test gives
 * the traits it measures (0.9 times the share answered), and no text reading of this model.
 */
export const KNOWN_TRAIT_CONFIDENCE = 0.5;

export function traitLevels(scores: Partial<TraitScores> | undefined): TraitLevels {
  const levels: TraitLevels = {};
  if (scores === undefined) return levels;
  for (const trait of OTHER_TRAITS) {
    const score = scores[trait];
    if (score === undefined || !Number.isFinite(score)) continue;
    if (score >= TRAIT_CLEAR_THRESHOLD) levels[trait] = 'very high';
    else if (score >= TRAIT_LEVEL_THRESHOLD) levels[trait] = 'high';
    else if (score <= -TRAIT_CLEAR_THRESHOLD) levels[trait] = 'very low';
    else if (score <= -TRAIT_LEVEL_THRESHOLD) levels[trait] = 'low';
    else if (score >= TRAIT_LEAN_THRESHOLD) levels[trait] = 'slightly high';
    else if (score <= -TRAIT_LEAN_THRESHOLD) levels[trait] = 'slightly low';
  }
  return levels;
}

/**
 * The levels of the traits known well enough to shape advice (KNOWN_TRAIT_CONFIDENCE): a test's
 * openness and conscientiousness (it does not ask about neuroticism, whose confidence is 0). Read
 * before shrinking, as the point is (reading.ts).
 */
export function knownTraitLevels(estimate: TraitEstimate): TraitLevels {
  const all = traitLevels(unshrunkScores(estimate));
  const known: TraitLevels = {};
  for (const trait of OTHER_TRAITS) {
    const confidence = estimate.confidence[trait];
    if (all[trait] !== undefined && Number.isFinite(confidence) && confidence >= KNOWN_TRAIT_CONFIDENCE) known[trait] = all[trait];
  }
  return known;
}

/** True for a lean ("slightly high" or "low"), short of a marked level. */
export function isLean(level: TraitLevel): boolean {
  return level.startsWith('slightly');
}

/** True when a person at `level` fits a phrase written for `wanted` ("high" takes "very high" too). */
export function levelFits(wanted: TraitLevel, level: TraitLevel | undefined): boolean {
  if (level === undefined) return false;
  if (wanted === level) return true;
  return (wanted === 'high' && level === 'very high') || (wanted === 'low' && level === 'very low');
}

/** Which end a level is at. */
export function levelEnd(level: TraitLevel): 'high' | 'low' {
  return level.endsWith('high') ? 'high' : 'low';
}
