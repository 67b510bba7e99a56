import { empiricalCdf, standingForLength, type LengthQuantiles } from '../src/personality/text/standing.ts';
import { quantiles } from './metrics.ts';

/**
 * Excerpt lengths at which held-out texts are scored: for the length curve (how much a
 * short text's standing is damped) and for the reference populations short texts are
 * read against (standing.ts, standingForLength).
 */
export const EXCERPT_LENGTHS = [50, 100, 200, 400];

/** 0 %, 1 %, …, 100 %: fine enough that interpolated standings are within ~0.01. */
export const QUANTILE_COUNT = 101;

/** What a trait's standing is read against, as the model file stores it. */
export interface TraitCalibration {
  full: { words: number; quantiles: number[]; atThreshold: number };
  levels: LengthQuantiles[];
}

/**
 * @param fullLogits out-of-fold decision values of the whole texts
 * @param excerptLogits per EXCERPT_LENGTHS entry, those of the same texts cut to that length
 * @param typicalWords the median length of the whole texts
 */
export function calibrate(fullLogits: ArrayLike<number>, excerptLogits: readonly ArrayLike<number>[], typicalWords: number, round: (value: number) => number = (value) => value): TraitCalibration {
  const full = quantiles(fullLogits, QUANTILE_COUNT).map(round);
  const levels = EXCERPT_LENGTHS.flatMap((words, i) => {
    const logits = excerptLogits[i];
    return logits !== undefined && words < typicalWords ? [{ words, quantiles: quantiles(logits, QUANTILE_COUNT).map(round) }] : [];
  });
  return { full: { words: typicalWords, quantiles: full, atThreshold: empiricalCdf(full, 0) }, levels };
}

export function calibratedStanding(calibration: TraitCalibration, z: number, words: number): number {
  return standingForLength(calibration.levels, calibration.full, z, words);
}
