import { pointAngle, pointToType, traitsToPoint, type DiscType } from '../src/personality/circle.ts';
import type { DiscPoint } from '../src/personality/types.ts';
import { GENRES, type Genre } from '../src/personality/text/genre.ts';
import { empiricalCdf } from '../src/personality/text/standing.ts';
import { quantiles } from './metrics.ts';

/**
 * Genre norms: a text of a kind is read against texts of that kind. For each genre of the
 * professional corpus, quantiles of its texts' out-of-fold decision values (no labels used): a
 * writer's standing is where they fall among writers of the same kind of text. The corpus holds
 * every style in equal measure, so the middle of a genre is the middle of the circle.
 */

/** 0 %, 5 %, …, 100 %: the genres hold about a hundred texts each, too few for finer steps. */
export const NORM_QUANTILES = 21;

export function genreNorms(values: ArrayLike<number>, genres: readonly Genre[]): Partial<Record<Genre, number[]>> {
  const norms: Partial<Record<Genre, number[]>> = {};
  for (const genre of GENRES) {
    const members: number[] = [];
    genres.forEach((g, i) => {
      if (g === genre) members.push(values[i] ?? 0);
    });
    if (members.length >= 10) norms[genre] = quantiles(members, NORM_QUANTILES);
  }
  return norms;
}

/** Standing in [-1, 1] among the genre's texts. */
export function normStanding(norm: ArrayLike<number>, z: number): number {
  return 2 * empiricalCdf(norm, z) - 1;
}

/**
 * The style that dominates a point: the largest of its DISC percentages, i.e. the quarter of
 * the circle, 90° wide, around the style's axis. A blend (Dc, Id, …) is 22.5° inside its style's
 * quarter on either side; the first letter of the type code is not used, because the balanced
 * types on the quarters' edges (DI, CD, SC, IS) take their first letter by convention only.
 */
export function dominantStyle(point: DiscPoint): 'D' | 'I' | 'S' | 'C' {
  const angle = pointAngle(point);
  return angle < 90 ? 'I' : angle < 180 ? 'D' : angle < 270 ? 'C' : 'S';
}

export function typeFromStandings(extraversion: number, agreeableness: number): DiscType {
  return pointToType(traitsToPoint({ extraversion, agreeableness }));
}
