/**
 * From a trait's decision value to what Rapport reports: a score that says where the
 * writer stands among the reference population, damped for short texts, and a separate
 * confidence. Pure functions over numbers stored in the model file.
 */

/** [word count, factor]: measured points of a curve over text length. */
export type LengthPoint = [words: number, factor: number];

/**
 * Empirical CDF from quantiles at probabilities 0, 1/(n−1), …, 1 (ascending), linear
 * between them: the share of reference texts whose decision value lies below `z`.
 */
export function empiricalCdf(quantiles: ArrayLike<number>, z: number): number {
  const last = quantiles.length - 1;
  if (last < 1) return 0.5;
  if (z < (quantiles[0] ?? 0)) return 0;
  if (z >= (quantiles[last] ?? 0)) return 1;
  // Last index k with quantiles[k] ≤ z, so quantiles[k + 1] > z even where quantiles tie.
  let low = 0;
  let high = last;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if ((quantiles[middle] ?? 0) <= z) low = middle;
    else high = middle;
  }
  const left = quantiles[low] ?? 0;
  const right = quantiles[high] ?? left;
  return (low + (right > left ? (z - left) / (right - left) : 0)) / last;
}

/**
 * Standing in [-1, 1]: 2F(z) − 1, with F the reference population's CDF, but with the
 * decision threshold (z = 0) pinned to 0 so the sign is always the model's call. Each
 * side is stretched over its half of the range: the reference texts the model calls
 * "high" spread uniformly over (0, 1], the others over [-1, 0). The threshold splits the
 * training texts as their labels split (≈ the median), so this is within a few
 * hundredths of plain 2F − 1.
 */
export function standing(quantiles: ArrayLike<number>, atThreshold: number, z: number): number {
  const share = empiricalCdf(quantiles, z);
  if (!(atThreshold > 0 && atThreshold < 1)) return 2 * share - 1;
  const value = z >= 0 ? (share - atThreshold) / (1 - atThreshold) : (share - atThreshold) / atThreshold;
  return Math.max(-1, Math.min(1, z >= 0 ? Math.max(0, value) : Math.min(0, value)));
}

/**
 * How much of a full-length text's evidence a text of `words` words carries, in [0, 1]:
 * linear between the measured points, from 0 at 0 words, and 1 past the last point
 * (the last point is a typical full-length training text, where the factor is 1 by definition).
 */
export function lengthFactor(points: readonly LengthPoint[], words: number): number {
  if (points.length === 0) return 1;
  let previous: LengthPoint = [0, 0];
  for (const point of points) {
    if (words <= point[0]) {
      const span = point[0] - previous[0];
      const value = span > 0 ? previous[1] + ((point[1] - previous[1]) * (words - previous[0])) / span : point[1];
      return Math.max(0, Math.min(1, value));
    }
    previous = point;
  }
  return 1;
}

/**
 * The length curve from held-out ranking quality: at each excerpt length, the share of
 * the full-text advantage over chance that remains, (AUC(L) − ½) / (AUC(full) − ½),
 * summed over traits (one curve for all traits, so a short text's point on the DISC
 * circle moves toward the centre without turning). Made non-decreasing in length and
 * capped at 1; the last point is the typical full text, at 1.
 */
export function lengthCurve(excerptAucs: ReadonlyArray<{ words: number; aucs: readonly number[] }>, fullAucs: readonly number[], fullWords: number): LengthPoint[] {
  const advantage = (aucs: readonly number[]): number => aucs.reduce((sum, auc) => sum + (auc - 0.5), 0);
  const full = advantage(fullAucs);
  const points: LengthPoint[] = excerptAucs
    .filter((excerpt) => excerpt.words < fullWords)
    .sort((a, b) => a.words - b.words)
    .map((excerpt) => [excerpt.words, full > 0 ? Math.max(0, Math.min(1, advantage(excerpt.aucs) / full)) : 0]);
  points.push([fullWords, 1]);
  for (let i = points.length - 2; i >= 0; i--) {
    const point = points[i];
    const next = points[i + 1];
    if (point !== undefined && next !== undefined) point[1] = Math.min(point[1], next[1]);
  }
  return points;
}

/**
 * Confidence in [0, 1]: the trait's reliability, 2·AUC − 1 of its cross-validated
 * ranking (0 for chance, 1 for a perfect ranking; ≈ 0.2–0.35 on the essays), times the
 * length factor. It does not depend on the score: a far-out score from a weak trait is
 * still a weak trait.
 */
export function confidenceOf(auc: number, lengthWeight: number): number {
  return Math.max(0, Math.min(1, 2 * auc - 1)) * Math.max(0, Math.min(1, lengthWeight));
}

/** Quantiles of the reference texts' decision values when the texts are cut to `words` words. */
export interface LengthQuantiles {
  words: number;
  quantiles: ArrayLike<number>;
}

/**
 * Standing read against reference texts of about the same length. A short text's
 * decision value is not only noisier but shifted: fewer words, a higher share of distinct
 * words, other punctuation rates all move it, the same way for every short text, and
 * against the full-length population every short text would lean toward one corner of
 * the circle. Against excerpts of its own length (the held-out essays cut to 50, 100,
 * 200, 400 words) a short text is centred on that population's median: plain 2F_L(z) − 1,
 * no threshold pinned, since at these lengths the threshold is not the median. Between
 * two measured lengths the standing is interpolated linearly in words; below the first,
 * the first is used; from the last (`full`, the typical full-length text) on, the pinned
 * full-length standing.
 */
export function standingForLength(
  levels: readonly LengthQuantiles[],
  full: { words: number; quantiles: ArrayLike<number>; atThreshold: number },
  z: number,
  words: number,
): number {
  const first = levels[0];
  if (first === undefined || words >= full.words) return standing(full.quantiles, full.atThreshold, z);
  if (words <= first.words) return levelStanding(first, z);
  for (let i = 0; i < levels.length; i++) {
    const low = levels[i];
    if (low === undefined) continue;
    const high = levels[i + 1];
    const highWords = high?.words ?? full.words;
    if (words > highWords) continue;
    const t = (words - low.words) / Math.max(highWords - low.words, 1);
    const upper = high !== undefined ? levelStanding(high, z) : standing(full.quantiles, full.atThreshold, z);
    return (1 - t) * levelStanding(low, z) + t * upper;
  }
  return standing(full.quantiles, full.atThreshold, z);
}

/** Plain 2F_L(z) − 1 against one length's excerpts (no closure per call: see standingForLength's callers). */
function levelStanding(level: LengthQuantiles, z: number): number {
  return 2 * empiricalCdf(level.quantiles, z) - 1;
}
