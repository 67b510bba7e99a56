/**
 * The first step of every composition: one reading of a person, made once from their trait
 * estimate and read by every surface (A1, A2/A3, the profile page, C2, C3, C4, C5), so the type,
 * intensity, confidence and the sides the advice takes are the same everywhere.
 *
 * Two strengths are kept apart on purpose:
 * - `intensity` is what is shown: the estimate's point, shrunk toward the centre by the evidence
 *   (personality/shrink.ts), an honest figure for "how far out can we say this person is".
 * - `strength` is what the text itself says, the reading before shrinking. Content is chosen by
 *   the reading's direction and this strength: a founder whose bio "loves a crowded stage" reads
 *   as a pronounced I/D whatever its length. How much evidence there is decides how firmly that
 *   content is worded (wording.ts) and whether pronounced phrases are used, never which way it
 *   points: thin evidence gives the same direction's advice, hedged, not a balanced person's.
 * A reading is central (a blend) only where it is itself near the centre on moderate or strong evidence.
 */
import { angleToType, discIntensity, normalizeAngle, pointAngle, traitsToPoint, type DiscType } from '../personality/circle.ts';
import { unshrunkScores } from '../personality/shrink.ts';
import type { TraitEstimate } from '../personality/types.ts';
import { readingConfidence } from '../personality/views.ts';
import { claimsOf } from './claims.ts';
import { roleFamily, type RoleFamily } from './roles.ts';
import { knownTraitLevels, type TraitLevels } from './traits.ts';

/** Below this confidence (0–100) the evidence is thin: advice is worded as tendencies throughout. */
export const TENTATIVE_CONFIDENCE = 15;
/** From this confidence the evidence is strong: firm wording throughout and pronounced phrases. */
export const EMPHATIC_CONFIDENCE = 50;
/** Phrases with minIntensity at or above this are pronounced-trait (emphatic) phrases. */
export const EMPHATIC_INTENSITY = 70;
/** Below this strength a reading on moderate or strong evidence is central: a blend. */
export const CENTRAL_STRENGTH = 30;

export const EVIDENCE_LEVELS = ['thin', 'moderate', 'strong'] as const;
export type EvidenceLevel = (typeof EVIDENCE_LEVELS)[number];

/** Confidence left out counts as strong. */
export function evidenceLevel(confidence: number | undefined): EvidenceLevel {
  if (confidence === undefined || !Number.isFinite(confidence)) return 'strong';
  if (confidence < TENTATIVE_CONFIDENCE) return 'thin';
  return confidence < EMPHATIC_CONFIDENCE ? 'moderate' : 'strong';
}

/** The four pure styles; a type's style is its first letter (Di, DI and Dc are all D). */
export type Style = 'D' | 'I' | 'S' | 'C';
/** Axis of each style (docs/architecture.md, "The DISC circle"): I 45°, D 135°, C 225°, S 315°. */
export const STYLE_AXES: Readonly<Record<Style, number>> = { I: 45, D: 135, C: 225, S: 315 };

export interface Reading {
  type: DiscType;
  /** Degrees in [0, 360): the direction of the reading (shrinking does not turn it). */
  angle: number;
  /** The type's first letter. */
  style: Style;
  /** The type's second letter as a style (Di: I, DI: I), or null for a pure type. */
  lean: Style | null;
  /** 0–100, shown: the shrunk point's distance from the centre. */
  intensity: number;
  /** 0–100, the reading before shrinking: what content is chosen at. */
  strength: number;
  /** 0–100, the one confidence (personality/views.ts readingConfidence). */
  confidence: number;
  evidence: EvidenceLevel;
  /** A blend: near the centre on moderate or strong evidence. */
  central: boolean;
  /** The traits the point leaves out, where known well enough (traits.ts knownTraitLevels). */
  traits: TraitLevels;
  role: RoleFamily | null;
  /** The `topic:side` claims the reading allows (claims.ts), sorted. */
  claims: readonly string[];
}

export interface ReadingParts {
  angle: number;
  strength: number;
  intensity?: number;
  confidence?: number;
  traits?: TraitLevels;
  role?: RoleFamily | null;
}

function styleOf(type: DiscType): { style: Style; lean: Style | null } {
  const [first, second] = [type.charAt(0), type.charAt(1)];
  return { style: first as Style, lean: second === '' ? null : (second.toUpperCase() as Style) };
}

/** A reading from its parts (tests and the generated profiles of the claims check use it directly). */
export function readingFrom(parts: ReadingParts): Reading {
  const strength = Math.round(Math.min(100, Math.max(0, Number.isFinite(parts.strength) ? parts.strength : 0)));
  const evidence = evidenceLevel(parts.confidence);
  const central = strength < CENTRAL_STRENGTH && evidence !== 'thin';
  const traits = parts.traits ?? {};
  const type = angleToType(parts.angle);
  // Content reads the angle on a half-degree grid (a difference no reader could see): the type
  // boundaries (11.25° + k × 22.5°) fall between grid points, so the type is the same on both.
  const angle = (Math.round(normalizeAngle(parts.angle) * 2) / 2) % 360;
  return {
    type,
    angle,
    ...styleOf(type),
    intensity: parts.intensity ?? strength,
    strength,
    confidence: parts.confidence ?? 100,
    evidence,
    central,
    traits,
    role: parts.role ?? null,
    claims: claimsOf({ angle, strength, central, traits }),
  };
}

/** The reading of a trait estimate, with the person's title when known. */
export function readEstimate(estimate: TraitEstimate, title?: string | null): Reading {
  // The point and confidence exactly as personality/views.ts shows them (its other views are not needed here).
  const shown = traitsToPoint(estimate.scores);
  const intensity = discIntensity(shown);
  const own = traitsToPoint(unshrunkScores(estimate));
  return readingFrom({
    angle: pointAngle(shown),
    // Shrinking keeps the direction; where the reading itself is at the centre, so is its angle.
    strength: Math.max(intensity, discIntensity(own)),
    intensity,
    confidence: readingConfidence(estimate),
    traits: knownTraitLevels(estimate),
    role: roleFamily(title),
  });
}
