/**
 * DISC circle geometry (docs/architecture.md, "The DISC circle"). Pure functions, no I/O.
 *
 * The plane: x runs from questioning (−) to accepting (+), y from reflective (−) to
 * active (+). Angles are degrees counter-clockwise from +x, always normalised to [0, 360).
 * Every function here accepts any number (including NaN and ±Infinity) and never returns
 * NaN: callers feed it model output and user input, and one NaN would poison a profile.
 */
import type { DiscPoint, TraitScores } from './types.ts';

export type DiscType =
  | 'IS' | 'Is' | 'I' | 'Id'
  | 'DI' | 'Di' | 'D' | 'Dc'
  | 'CD' | 'Cd' | 'C' | 'Cs'
  | 'SC' | 'Sc' | 'S' | 'Si';

/** Width of one type's sector; each type owns [centre − 11.25°, centre + 11.25°). */
export const SECTOR_WIDTH = 22.5;

/** The sixteen types in counter-clockwise order from 0°, with their sector centres. */
export const DISC_TYPES: readonly { code: DiscType; angle: number }[] = [
  { code: 'IS', angle: 0 },
  { code: 'Is', angle: 22.5 },
  { code: 'I', angle: 45 },
  { code: 'Id', angle: 67.5 },
  { code: 'DI', angle: 90 },
  { code: 'Di', angle: 112.5 },
  { code: 'D', angle: 135 },
  { code: 'Dc', angle: 157.5 },
  { code: 'CD', angle: 180 },
  { code: 'Cd', angle: 202.5 },
  { code: 'C', angle: 225 },
  { code: 'Cs', angle: 247.5 },
  { code: 'SC', angle: 270 },
  { code: 'Sc', angle: 292.5 },
  { code: 'S', angle: 315 },
  { code: 'Si', angle: 337.5 },
];

/** Directions of the four pure styles. */
export const DISC_AXES = { d: 135, i: 45, s: 315, c: 225 } as const;

/** Big Five axes on the plane: the DISC axes rotated by 22.5° (docs/architecture.md, "The DISC circle"). */
export const EXTRAVERSION_ANGLE = 67.5;
export const AGREEABLENESS_ANGLE = -22.5;

export interface DiscPercentages {
  d: number;
  i: number;
  s: number;
  c: number;
}

const DEG = Math.PI / 180;
const STYLE_KEYS = ['d', 'i', 's', 'c'] as const;

function finiteOrZero(value: number): number {
  return Number.isFinite(value) ? value : 0;
}

function unit(deg: number): DiscPoint {
  return { x: Math.cos(deg * DEG), y: Math.sin(deg * DEG) };
}

/** Normalises any angle to [0, 360); non-finite angles become 0. */
export function normalizeAngle(deg: number): number {
  if (!Number.isFinite(deg)) return 0;
  const wrapped = ((deg % 360) + 360) % 360;
  // A tiny negative input wraps to 360 − ε, which rounds to exactly 360 in floating point.
  return wrapped >= 360 ? 0 : wrapped;
}

/** Scales a point back onto the unit disc if it lies outside it; non-finite parts become 0. */
export function clipToUnitDisc(p: DiscPoint): DiscPoint {
  const x = finiteOrZero(p.x);
  const y = finiteOrZero(p.y);
  const r = Math.hypot(x, y);
  if (r <= 1) return { x, y };
  // hypot can overflow to Infinity for huge inputs; the direction is still well defined.
  if (!Number.isFinite(r)) return unit(Math.atan2(y, x) / DEG);
  return { x: x / r, y: y / r };
}

/** E·u(67.5°) + A·u(−22.5°), clipped to the unit disc. */
export function traitsToPoint(scores: Pick<TraitScores, 'extraversion' | 'agreeableness'>): DiscPoint {
  const e = finiteOrZero(scores.extraversion);
  const a = finiteOrZero(scores.agreeableness);
  const eAxis = unit(EXTRAVERSION_ANGLE);
  const aAxis = unit(AGREEABLENESS_ANGLE);
  return clipToUnitDisc({ x: e * eAxis.x + a * aAxis.x, y: e * eAxis.y + a * aAxis.y });
}

/**
 * Inverse of traitsToPoint for an unclipped point: the two axes are orthonormal, so each
 * trait is the point's projection on its axis. Used when only a point is known.
 */
export function pointToTraits(p: DiscPoint): Pick<TraitScores, 'extraversion' | 'agreeableness'> {
  const { x, y } = clipToUnitDisc(p);
  const eAxis = unit(EXTRAVERSION_ANGLE);
  const aAxis = unit(AGREEABLENESS_ANGLE);
  return { extraversion: x * eAxis.x + y * eAxis.y, agreeableness: x * aAxis.x + y * aAxis.y };
}

/** Angle of the point in [0, 360). The centre has no direction; it is defined as 0. */
export function pointAngle(p: DiscPoint): number {
  const x = finiteOrZero(p.x);
  const y = finiteOrZero(p.y);
  if (x === 0 && y === 0) return 0; // atan2(−0, −0) would give −180°
  return normalizeAngle(Math.atan2(y, x) / DEG);
}

/** Distance from the centre, clipped to [0, 1]. */
export function pointRadius(p: DiscPoint): number {
  const r = Math.hypot(finiteOrZero(p.x), finiteOrZero(p.y));
  return Number.isFinite(r) ? Math.min(r, 1) : 1;
}

/**
 * The type whose sector holds the angle. Sector k covers [centre − 11.25°, centre + 11.25°),
 * so a boundary angle belongs to the counter-clockwise neighbour.
 */
export function angleToType(deg: number): DiscType {
  const index = Math.floor((normalizeAngle(deg) + SECTOR_WIDTH / 2) / SECTOR_WIDTH) % DISC_TYPES.length;
  return typeAt(index);
}

export function pointToType(p: DiscPoint): DiscType {
  return angleToType(pointAngle(p));
}

/** Position of a type in DISC_TYPES (counter-clockwise order). */
export function typeIndex(code: DiscType): number {
  return DISC_TYPES.findIndex((t) => t.code === code);
}

function typeAt(index: number): DiscType {
  const entry = DISC_TYPES[((index % DISC_TYPES.length) + DISC_TYPES.length) % DISC_TYPES.length];
  if (entry === undefined) throw new Error(`no DISC type at index ${index}`);
  return entry.code;
}

/** Centre angle (degrees) of a type's sector. */
export function typeCentre(code: DiscType): number {
  const entry = DISC_TYPES.find((t) => t.code === code);
  if (entry === undefined) throw new Error(`unknown DISC type ${String(code)}`);
  return entry.angle;
}

/** Smallest angle between two directions, in [0, 180]. */
export function angularDistance(a: number, b: number): number {
  const diff = normalizeAngle(a - b);
  return diff > 180 ? 360 - diff : diff;
}

/** Integer 0–100: how far from the blended centre the person sits. */
export function discIntensity(p: DiscPoint): number {
  return Math.round(100 * pointRadius(p));
}

/** Exact shares p_k = (1 + r·cos(θ − θ_k)) / 4; they sum to 1. */
export function discFractions(p: DiscPoint): DiscPercentages {
  const r = pointRadius(p);
  const theta = pointAngle(p);
  const share = (axis: number): number => (1 + r * Math.cos((theta - axis) * DEG)) / 4;
  return { d: share(DISC_AXES.d), i: share(DISC_AXES.i), s: share(DISC_AXES.s), c: share(DISC_AXES.c) };
}

/**
 * Integer percentages summing to exactly 100 (largest remainder). Ties in the remainder go to
 * the earlier key in d, i, s, c order, so the result is deterministic.
 */
export function discPercentages(p: DiscPoint): DiscPercentages {
  const fractions = discFractions(p);
  const scaled = STYLE_KEYS.map((key) => ({ key, value: fractions[key] * 100 }));
  const result: DiscPercentages = { d: 0, i: 0, s: 0, c: 0 };
  let assigned = 0;
  for (const { key, value } of scaled) {
    result[key] = Math.floor(value);
    assigned += result[key];
  }
  const byRemainder = scaled
    .map(({ key, value }, order) => ({ key, remainder: value - Math.floor(value), order }))
    .sort((a, b) => b.remainder - a.remainder || a.order - b.order);
  for (let k = 0; k < 100 - assigned; k++) {
    const next = byRemainder[k % byRemainder.length];
    if (next !== undefined) result[next.key] += 1;
  }
  return result;
}

/**
 * Inverse of the percentages: Σ p_k·u(θ_k) = (r/2)·u(θ), so point = 2·Σ p_k·u(θ_k).
 * Shares are normalised by their total first, so this accepts exact fractions (sum 1) and
 * integer percentages (sum 100) alike; rounded integers give the point back within ~0.03.
 */
export function percentagesToPoint(pct: DiscPercentages): DiscPoint {
  const shares = STYLE_KEYS.map((key) => Math.max(0, finiteOrZero(pct[key])));
  const total = shares.reduce((sum, v) => sum + v, 0);
  if (total <= 0 || !Number.isFinite(total)) return { x: 0, y: 0 };
  let x = 0;
  let y = 0;
  STYLE_KEYS.forEach((key, k) => {
    const direction = unit(DISC_AXES[key]);
    const share = (shares[k] ?? 0) / total;
    x += 2 * share * direction.x;
    y += 2 * share * direction.y;
  });
  return clipToUnitDisc({ x, y });
}
