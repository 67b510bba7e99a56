import type { DiscPoint } from '../src/personality/types.ts';

/**
 * Choosing k of the shrink n / (n + k) (src/personality/shrink.ts) from pairs of readings of
 * one writer. Pure; `npm run eval` applies it to held-out runs of the essays.
 */

/**
 * Reliability of a reading at one length: the least-squares slope of one run's coordinate on the
 * other's, over both coordinates of every pair taken both ways (so the slope is symmetric). For
 * two readings X1, X2 = T + noise of one writer, the slope is var(T) / var(X): the share of the
 * reading the posterior mean keeps when the prior is the population (centred) average.
 */
export function splitHalfSlope(pairs: ReadonlyArray<readonly [DiscPoint, DiscPoint]>): number {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [p, q] of pairs) {
    xs.push(p.x, p.y, q.x, q.y);
    ys.push(q.x, q.y, p.x, p.y);
  }
  if (xs.length === 0) return 0;
  const mx = xs.reduce((sum, v) => sum + v, 0) / xs.length;
  const my = ys.reduce((sum, v) => sum + v, 0) / ys.length;
  let covariance = 0;
  let variance = 0;
  xs.forEach((x, i) => {
    covariance += (x - mx) * ((ys[i] ?? my) - my);
    variance += (x - mx) ** 2;
  });
  return variance > 0 ? covariance / variance : 0;
}

/**
 * The k (whole words, 1–5,000) for which n / (n + k) is nearest the measured reliabilities,
 * each length weighted by its number of pairs.
 */
export function fitPriorWords(points: ReadonlyArray<{ words: number; slope: number; weight: number }>): number {
  let best = 1;
  let bestError = Number.POSITIVE_INFINITY;
  for (let k = 1; k <= 5000; k++) {
    let error = 0;
    for (const { words, slope, weight } of points) error += weight * (slope - words / (words + k)) ** 2;
    if (error < bestError) {
      bestError = error;
      best = k;
    }
  }
  return best;
}
