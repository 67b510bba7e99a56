/**
 * The one place personality views are computed (docs/architecture.md, "One estimate, many views": every typology is a view of
 * one trait estimate). Endpoints, pages and content composers all read a PersonalityView.
 */
import {
  clipToUnitDisc,
  discIntensity,
  discPercentages,
  pointAngle,
  pointToTraits,
  pointToType,
  traitsToPoint,
  type DiscPercentages,
  type DiscType,
} from './circle.ts';
import { archetypeName, enneagramType, myersBriggs } from './typologies.ts';
import type { DiscPoint, TraitEstimate, TraitScores } from './types.ts';

export interface PersonalityView {
  point: DiscPoint;
  /** Degrees in [0, 360), counter-clockwise from accepting (+x). */
  angle: number;
  discType: DiscType;
  /** 0–100, distance from the blended centre. */
  discIntensity: number;
  discPercentages: DiscPercentages;
  myersBriggsType: string;
  enneagramType: number;
  archetype: string;
  /** 0–100, how sure we are of the point. */
  confidence: number;
}

function finiteOr(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) ? value : fallback;
}

/** A [0, 1] confidence, treating junk (NaN, out of range) as the nearest valid value or 0. */
function clampUnit(confidence: number): number {
  return Math.min(1, Math.max(0, finiteOr(confidence, 0)));
}

/**
 * The one confidence of a reading, shown on every surface (A1, A2/A3, the profile page, C2's
 * `disc_scores.confidence`) and read by every composer (how firmly advice is worded): how sure
 * the placement on the DISC circle is, 0–100. The point has one orthogonal coordinate from each
 * of extraversion and agreeableness, so both confidences place it equally: the point's
 * confidence is their mean. For a text each trait's confidence is the model's reliability for it
 * times how much of it a text of this length keeps (personality/text/standing.ts), about 15 for
 * 150 words and 20 for a full essay with this model; a completed personality test gives 90 times
 * the share of its circle items answered.
 */
export function pointConfidence(confidence: Pick<TraitScores, 'extraversion' | 'agreeableness'>): number {
  return Math.round((100 * (clampUnit(confidence.extraversion) + clampUnit(confidence.agreeableness))) / 2);
}

/**
 * A view when only a point is known (the assessment measures the circle directly).
 * Missing extraversion/agreeableness are read back from the point; other missing traits
 * count as the population average (0). A directly measured point defaults to full confidence.
 */
export function viewFromPoint(point: DiscPoint, scores?: Partial<TraitScores>, confidence = 100): PersonalityView {
  const clipped = clipToUnitDisc(point);
  const fromPoint = pointToTraits(clipped);
  const traits: TraitScores = {
    extraversion: finiteOr(scores?.extraversion, fromPoint.extraversion),
    agreeableness: finiteOr(scores?.agreeableness, fromPoint.agreeableness),
    conscientiousness: finiteOr(scores?.conscientiousness, 0),
    openness: finiteOr(scores?.openness, 0),
    neuroticism: finiteOr(scores?.neuroticism, 0),
  };
  const discType = pointToType(clipped);
  return {
    point: clipped,
    angle: pointAngle(clipped),
    discType,
    discIntensity: discIntensity(clipped),
    discPercentages: discPercentages(clipped),
    myersBriggsType: myersBriggs(traits),
    enneagramType: enneagramType(discType, traits),
    archetype: archetypeName(discType),
    confidence: Math.round(Math.min(100, Math.max(0, finiteOr(confidence, 0)))),
  };
}

/** The one confidence of an estimate (pointConfidence), 0–100. */
export function readingConfidence(estimate: TraitEstimate): number {
  return pointConfidence(estimate.confidence);
}

/** All views of one trait estimate. */
export function personalityView(estimate: TraitEstimate): PersonalityView {
  return viewFromPoint(traitsToPoint(estimate.scores), estimate.scores, readingConfidence(estimate));
}
