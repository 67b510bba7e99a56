import { angularDistance, DISC_TYPES, pointAngle, pointToType, typeIndex, type DiscType } from '../src/personality/circle.ts';
import type { DiscPoint } from '../src/personality/types.ts';
import { seededRandom } from './random.ts';

/**
 * Stability of the DISC type a text gets: the same writer, or the same text edited
 * slightly, should land on the same type or a neighbour. Pure functions: the edits that
 * make a text's variants, and the figures over pairs of points. `npm run eval` applies
 * them to the cross-validation folds' held-out essays.
 */

/** Sentences as written: each ends at `.`, `!`, `?` or `…` (with what follows them) or a line break. */
export function sentencesOf(text: string): string[] {
  const pieces = text.match(/[^.!?…\n]*(?:[.!?…]+["'”’)\]]*|\n|$)/g) ?? [];
  return pieces.map((piece) => piece.trim()).filter((piece) => /\p{L}/u.test(piece));
}

function wordCountOf(text: string): number {
  return text.split(/\s+/).filter((word) => word !== '').length;
}

/**
 * The text cut into two runs of whole sentences with as near equal word counts as the
 * sentences allow. A text of one sentence is cut at its middle word.
 */
export function splitHalves(text: string): [string, string] {
  const sentences = sentencesOf(text);
  if (sentences.length < 2) {
    const words = text.split(/\s+/).filter((word) => word !== '');
    const middle = Math.floor(words.length / 2);
    return [words.slice(0, middle).join(' '), words.slice(middle).join(' ')];
  }
  const total = wordCountOf(text);
  let seen = 0;
  let cut = 1;
  let best = Number.POSITIVE_INFINITY;
  sentences.forEach((sentence, index) => {
    seen += wordCountOf(sentence);
    const gap = Math.abs(total - 2 * seen);
    if (index < sentences.length - 1 && gap < best) {
      best = gap;
      cut = index + 1;
    }
  });
  return [sentences.slice(0, cut).join(' ').trim(), sentences.slice(cut).join(' ').trim()];
}

/**
 * The text without one of its sentences, for each of `count` sentences chosen at random
 * (seeded, so runs repeat); fewer variants when the text has fewer sentences than `count` + 1.
 */
export function withOneSentenceRemoved(text: string, count: number, seed: number): string[] {
  const sentences = sentencesOf(text);
  if (sentences.length < 2) return [];
  const random = seededRandom(seed);
  const chosen = new Set<number>();
  while (chosen.size < Math.min(count, sentences.length - 1)) chosen.add(Math.floor(random() * sentences.length));
  return [...chosen].map((skip) => sentences.filter((_, index) => index !== skip).join(' ').trim());
}

/**
 * The same words with plainer punctuation, as another person might type them: every
 * sentence ends with a full stop, and commas, semicolons, colons, dashes, quotes and
 * brackets are dropped.
 */
export function repunctuate(text: string): string {
  return text
    .replace(/\.{2,}|…|[!?]+/g, '.')
    .replace(/[,;:"“”()[\]—–]|(?<!\p{L})['‘’]|['‘’](?!\p{L})|(?<=\s)-+(?=\s)/gu, ' ')
    .replace(/[ \t]+/g, ' ');
}

export function firstWords(text: string, count: number): string {
  return text.split(/\s+/).filter((word) => word !== '').slice(0, count).join(' ');
}

/** Steps between two types around the circle: 0 for the same type, 8 for opposites. */
export function typeSteps(a: DiscType, b: DiscType): number {
  const difference = Math.abs(typeIndex(a) - typeIndex(b)) % DISC_TYPES.length;
  return Math.min(difference, DISC_TYPES.length - difference);
}

export interface Agreement {
  pairs: number;
  /** Share of pairs whose two points have the same type. */
  sameType: number;
  /** Share of pairs whose types are the same or neighbours (one step of 22.5°). */
  withinOneStep: number;
  /** Median angle between the two points, in degrees. */
  medianAngle: number;
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return sorted.length % 2 === 1 ? (sorted[Math.floor(middle)] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export function agreement(pairs: ReadonlyArray<readonly [DiscPoint, DiscPoint]>): Agreement {
  let same = 0;
  let near = 0;
  const angles: number[] = [];
  for (const [one, two] of pairs) {
    const steps = typeSteps(pointToType(one), pointToType(two));
    if (steps === 0) same++;
    if (steps <= 1) near++;
    angles.push(angularDistance(pointAngle(one), pointAngle(two)));
  }
  const n = Math.max(pairs.length, 1);
  return { pairs: pairs.length, sameType: same / n, withinOneStep: near / n, medianAngle: median(angles) };
}

export function typeShares(points: readonly DiscPoint[]): Record<DiscType, number> {
  const counts = Object.fromEntries(DISC_TYPES.map(({ code }) => [code, 0])) as Record<DiscType, number>;
  for (const point of points) counts[pointToType(point)] += 1;
  for (const { code } of DISC_TYPES) counts[code] /= Math.max(points.length, 1);
  return counts;
}

/**
 * How much more often the most over-represented type occurs among the shortened texts
 * than among the full ones: max over types of share(short) / share(full). Counts are
 * smoothed by one (add-one per type) so a type the full texts never get does not divide
 * by zero; with no pull toward any corner the ratio stays near 1.
 */
export function maxShareRatio(short: readonly DiscPoint[], full: readonly DiscPoint[]): { type: DiscType; ratio: number } {
  const shortShares = typeShares(short);
  const fullShares = typeShares(full);
  let worst: { type: DiscType; ratio: number } = { type: 'IS', ratio: 0 };
  for (const { code } of DISC_TYPES) {
    const shortCount = shortShares[code] * short.length + 1;
    const fullCount = fullShares[code] * full.length + 1;
    const ratio = shortCount / (short.length + DISC_TYPES.length) / (fullCount / (full.length + DISC_TYPES.length));
    if (ratio > worst.ratio) worst = { type: code, ratio };
  }
  return worst;
}
