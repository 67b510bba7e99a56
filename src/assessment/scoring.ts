/**
 * Scoring the personality test (docs/architecture.md, "The DISC circle"; rules and scale in README.md beside this file).
 * Pure: answers in, a trait estimate or a reason out. No HTTP, no database.
 *
 * The circumplex octants place the person on the DISC plane directly (the instrument's
 * angles are the plane's: warmth LM at 0° = +x, dominance PA at 90° = +y); extraversion and
 * agreeableness are read back from that point, so every view (type, intensity, archetype…)
 * computed from the estimate lands on the measured point.
 */
import { pointToTraits } from '../personality/circle.ts';
import type { DiscPoint, TraitEstimate } from '../personality/types.ts';
import { isOctant, OCTANT_CODES, TRAIT_SCALES, type ItemScale, type Questionnaire, type QuestionnaireItem } from './questionnaire.ts';

export type ScoreFailure = 'too_many_gaps' | 'straight_lined' | 'unknown_item' | 'out_of_range';

export type ScoreOutcome =
  | { ok: true; estimate: TraitEstimate; answered: number; point: DiscPoint }
  | { ok: false; reason: ScoreFailure; message: string };

/** At most this share of all items may be left unanswered. */
export const MAX_GAP_SHARE = 0.1;
/** Each octant needs at least 3 of its 4 items; the trait scales the same share (75 %). */
export const MIN_SCALE_SHARE = 0.75;
/** One answer given to this share of the items (all, or only the circle's) reads as straight-lining. */
export const STRAIGHT_LINE_SHARE = 0.9;
/**
 * Radius = tanh(GAIN · amplitude), amplitude in answer points (README.md). A one-point cosine
 * profile (or one octant at 5 and the rest at 1) has amplitude 1 and reaches intensity 80;
 * typical profiles (amplitude 0.3–0.6) land at 30–60; the radius never leaves the unit disc.
 */
export const CIRCLE_GAIN = 1.1;
/** Confidence of a trait whose items were all answered; fewer answers scale it down. */
export const FULL_CONFIDENCE = 0.9;

const DEG = Math.PI / 180;
const MIDPOINT = 3;

function fail(reason: ScoreFailure, message: string): ScoreOutcome {
  return { ok: false, reason, message };
}

/** An id quoted for a message, bounded so a forged answer cannot flood a log or a page. */
function quoteId(id: string): string {
  return JSON.stringify(id.length > 40 ? `${id.slice(0, 40)}…` : id);
}

function keyedValue(item: QuestionnaireItem, value: number): number {
  return item.keyed === 'minus' ? 6 - value : value;
}

interface ScaleTally {
  sum: number;
  answered: number;
  total: number;
}

function tallyScales(q: Questionnaire, answers: ReadonlyMap<string, number>): Map<ItemScale, ScaleTally> {
  const tallies = new Map<ItemScale, ScaleTally>();
  for (const item of q.items) {
    const tally = tallies.get(item.scale) ?? { sum: 0, answered: 0, total: 0 };
    tally.total += 1;
    const value = answers.get(item.id);
    if (value !== undefined) {
      tally.sum += keyedValue(item, value);
      tally.answered += 1;
    }
    tallies.set(item.scale, tally);
  }
  return tallies;
}

function mostCommonShare(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return Math.max(...counts.values()) / values.length;
}

/** Checks ids and values; returns the answered items or the reason they cannot be scored. */
function readAnswers(q: Questionnaire, answers: Readonly<Record<string, number>>): Map<string, number> | ScoreOutcome {
  const known = new Set(q.items.map((item) => item.id));
  const read = new Map<string, number>();
  for (const [id, value] of Object.entries(answers)) {
    if (!known.has(id)) return fail('unknown_item', `The answer to ${quoteId(id)} is not a question of this test.`);
    // An explicitly empty answer is a gap, like a missing one.
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 5) {
      return fail('out_of_range', `The answer to ${quoteId(id)} must be a whole number from 1 to 5.`);
    }
    read.set(id, value);
  }
  return read;
}

/**
 * Octant means → the point. The octant means are ipsatised (the person's mean over the eight
 * octants subtracted), which removes a general tendency to agree; for eight equally spaced
 * angles Σcos = Σsin = 0, so this leaves the projection unchanged and a flat profile sits at the
 * centre. 2/8·Σ d_k·u(θ_k) is the least-squares amplitude of the cosine through the eight
 * means (the circumplex structural summary), in answer points; tanh maps it into the disc.
 */
function circlePoint(q: Questionnaire, tallies: ReadonlyMap<ItemScale, ScaleTally>): DiscPoint {
  const means = q.octants.map((octant) => {
    const tally = tallies.get(octant.code);
    return { angle: octant.angle, mean: tally && tally.answered > 0 ? tally.sum / tally.answered : MIDPOINT };
  });
  const elevation = means.reduce((sum, m) => sum + m.mean, 0) / means.length;
  let x = 0;
  let y = 0;
  for (const { angle, mean } of means) {
    x += (2 / means.length) * (mean - elevation) * Math.cos(angle * DEG);
    y += (2 / means.length) * (mean - elevation) * Math.sin(angle * DEG);
  }
  const amplitude = Math.hypot(x, y);
  // Below float noise the direction is meaningless: a flat profile is the centre.
  if (amplitude < 1e-9) return { x: 0, y: 0 };
  const radius = Math.tanh(CIRCLE_GAIN * amplitude);
  return { x: (x / amplitude) * radius, y: (y / amplitude) * radius };
}

/** Mean keyed answer → [-1, 1] around the scale's midpoint (3 → 0, all 5 → 1, all 1 → −1). */
function traitScore(tally: ScaleTally | undefined): number {
  if (!tally || tally.answered === 0) return 0;
  return (tally.sum / tally.answered - MIDPOINT) / 2;
}

function confidenceOf(tallies: readonly (ScaleTally | undefined)[]): number {
  const answered = tallies.reduce((sum, t) => sum + (t?.answered ?? 0), 0);
  const total = tallies.reduce((sum, t) => sum + (t?.total ?? 0), 0);
  return total === 0 ? 0 : FULL_CONFIDENCE * (answered / total);
}

/**
 * Scores a submitted test. Order of checks: unknown ids, bad values, gaps, straight-lining;
 * the first failure is returned. Neuroticism is not measured: score 0, confidence 0.
 */
export function scoreAnswers(q: Questionnaire, answers: Readonly<Record<string, number>>): ScoreOutcome {
  const read = readAnswers(q, answers);
  if (!(read instanceof Map)) return read;

  const missing = q.items.length - read.size;
  if (missing > Math.floor(q.items.length * MAX_GAP_SHARE)) {
    return fail('too_many_gaps', `${missing} of ${q.items.length} questions are unanswered; at most ${Math.floor(q.items.length * MAX_GAP_SHARE)} may be left out.`);
  }
  const tallies = tallyScales(q, read);
  for (const [scale, tally] of tallies) {
    if (tally.answered < Math.ceil(tally.total * MIN_SCALE_SHARE)) {
      return fail('too_many_gaps', `Too few questions about one part of the test (${scale}) are answered to score it.`);
    }
  }

  const circleValues = q.items.filter((item) => isOctant(item.scale)).flatMap((item) => {
    const value = read.get(item.id);
    return value === undefined ? [] : [value];
  });
  if (mostCommonShare([...read.values()]) >= STRAIGHT_LINE_SHARE || mostCommonShare(circleValues) >= STRAIGHT_LINE_SHARE) {
    return fail('straight_lined', 'Nearly every question has the same answer, so the test cannot tell anything apart.');
  }

  const point = circlePoint(q, tallies);
  const { extraversion, agreeableness } = pointToTraits(point);
  const circleConfidence = confidenceOf(OCTANT_CODES.map((code) => tallies.get(code)));
  const [openness, conscientiousness] = TRAIT_SCALES.map((trait) => tallies.get(trait));
  const estimate: TraitEstimate = {
    scores: { extraversion, agreeableness, conscientiousness: traitScore(conscientiousness), openness: traitScore(openness), neuroticism: 0 },
    confidence: {
      extraversion: circleConfidence,
      agreeableness: circleConfidence,
      conscientiousness: confidenceOf([conscientiousness]),
      openness: confidenceOf([openness]),
      neuroticism: 0,
    },
    source: 'assessment',
    modelVersion: q.version,
    wordCount: 0,
  };
  return { ok: true, estimate, answered: read.size, point };
}
