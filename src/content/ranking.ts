/**
 * Step 4 of composing: the candidates (candidates.ts) in order of fit to the reading's point.
 *
 * Fit is about 1 at a phrase's centre, 0 at the edge of its (widened) arc and negative outside it,
 * so out-of-range phrases can still fill a thin section. Spreads widen as strength falls, because
 * the angle of a reading near the centre says little; blend phrases get a bonus that grows as
 * strength falls. Then, within the fitting phrases:
 * - Radius: among equally placed phrases, those written for pronounced traits (minIntensity)
 *   move ahead for people far from the centre and behind for people nearer to it.
 * - Angle: places are shared among the parts of the circle in proportion to their fit (the
 *   D'Hondt rule), so someone near the edge of a sector gets more of the neighbour's advice.
 * - Variety: the phrases that fit almost as well as the best (within VARIETY_BAND) are taken in an
 *   order the whole reading decides (its angle, strength, evidence and role), so two people of
 *   one type read different advice, all of it fitting them, rather than one page: over the demo
 *   people one sentence stood in 11 of 14 profiles.
 */
import { angularDistance } from '../personality/circle.ts';
import { BLEND_PHRASE_MAX, candidatesAmong, isBlendPhrase, type SelectionPoint } from './candidates.ts';
import type { Phrase } from './phrases.ts';
import { seededRandom } from '../shared/random.ts';

/** Fit of a phrase that fits everyone (spread 180): below a close match, above a loose one. */
const UNIVERSAL_FIT = 0.55;
const WIDEN_BELOW = 50;
const WIDEN_PER_POINT = 0.9;
/** Strengths from here on are read in bands of ten (the choice is equal within a band). */
const BANDED_FROM = 50;
export const BAND_LIMITS: readonly number[] = [60, 70, 80, 90];
/** Largest move of a pronounced-trait phrase, in fit (sector centres are 0.5 apart at spread 45). */
const PRONOUNCED_SHIFT = 0.15;
/** How far past its minIntensity a person must be before a pronounced phrase leads. */
const PRONOUNCED_MARGIN = 25;
/** Fits closer than this are a tie. */
const TIE = 1e-9;

export interface RankedPhrase {
  phrase: Phrase;
  fit: number;
}

/** How well a candidate fits the point (its filters are candidates.ts's business). */
export function phraseFit(phrase: Phrase, at: Pick<SelectionPoint, 'angle' | 'strength'>): number {
  const blendBonus = isBlendPhrase(phrase)
    ? 0.3 + 0.6 * Math.max(0, 1 - at.strength / Math.max(1, phrase.maxIntensity ?? BLEND_PHRASE_MAX))
    : 0;
  if (phrase.spread >= 180) return UNIVERSAL_FIT + blendBonus;
  const spread = Math.min(180, phrase.spread + Math.max(0, WIDEN_BELOW - at.strength) * WIDEN_PER_POINT);
  return 1 - angularDistance(at.angle, phrase.angle) / spread + blendBonus;
}

/**
 * The candidates among `phrases`, best fit first. Ties go to a phrase's place among those sharing
 * its angle, then to the id: two equally close sectors take turns.
 */
export function rankCandidates(phrases: readonly Phrase[], at: SelectionPoint): RankedPhrase[] {
  const perAngle = new Map<number, number>();
  const ranked: (RankedPhrase & { turn: number })[] = [];
  for (const phrase of candidatesAmong(phrases, at)) {
    const turn = perAngle.get(phrase.angle) ?? 0;
    perAngle.set(phrase.angle, turn + 1);
    ranked.push({ phrase, fit: phraseFit(phrase, at), turn });
  }
  ranked.sort((a, b) => {
    if (Math.abs(b.fit - a.fit) > TIE) return b.fit - a.fit;
    if (a.turn !== b.turn) return a.turn - b.turn;
    return a.phrase.id < b.phrase.id ? -1 : a.phrase.id > b.phrase.id ? 1 : 0;
  });
  return ranked;
}

function banded(strength: number): number {
  return strength >= BANDED_FROM ? Math.min(90, Math.floor(strength / 10) * 10) : strength;
}

function radiusShift(minIntensity: number | undefined, strength: number): number {
  if (minIntensity === undefined) return 0;
  const past = (banded(strength) - minIntensity - PRONOUNCED_MARGIN) / PRONOUNCED_MARGIN;
  return PRONOUNCED_SHIFT * Math.max(-1, Math.min(1, past));
}

/** The ranking reordered by radius and shared among the parts of the circle (above). */
export function apportion(ranked: readonly RankedPhrase[], strength: number): RankedPhrase[] {
  const fitting: (RankedPhrase & { order: number; group: number })[] = [];
  const rest: RankedPhrase[] = [];
  const groupIds = new Map<number, number>();
  ranked.forEach((r, order) => {
    if (r.fit <= 0) {
      rest.push(r);
      return;
    }
    const key = r.phrase.angle * 1000 + r.phrase.spread;
    let group = groupIds.get(key);
    if (group === undefined) {
      group = groupIds.size;
      groupIds.set(key, group);
    }
    fitting.push({ phrase: r.phrase, fit: Math.max(1e-6, r.fit + radiusShift(r.phrase.minIntensity, strength)), order, group });
  });
  fitting.sort((a, b) => (Math.abs(b.fit - a.fit) > TIE ? b.fit - a.fit : a.order - b.order));
  // One queue per part of the circle, best first; each place goes to the queue whose next
  // phrase has the highest fit / (places taken + 1).
  const queues: (typeof fitting)[] = Array.from({ length: groupIds.size }, () => []);
  for (const r of fitting) queues[r.group]?.push(r);
  const heads = new Array<number>(queues.length).fill(0);
  const out: RankedPhrase[] = [];
  while (out.length < fitting.length) {
    let best = -1;
    let bestQuotient = 0;
    let bestOrder = 0;
    for (let g = 0; g < queues.length; g++) {
      const next = queues[g]?.[heads[g] ?? 0];
      if (next === undefined) continue;
      const quotient = next.fit / ((heads[g] ?? 0) + 1);
      if (best < 0 || quotient > bestQuotient + TIE || (Math.abs(quotient - bestQuotient) <= TIE && next.order < bestOrder)) {
        best = g;
        bestQuotient = quotient;
        bestOrder = next.order;
      }
    }
    const next = queues[best]?.[heads[best] ?? 0];
    if (next === undefined) break;
    heads[best] = (heads[best] ?? 0) + 1;
    out.push({ phrase: next.phrase, fit: next.fit });
  }
  return out.concat(rest);
}

/** Fits within this of the best count as equally good for the order the reading decides. */
export const VARIETY_BAND = 0.75;

/** A number for a string (FNV-1a), the seed of a reading's order. */
export function seedOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * The ranking with its leading phrases (those within VARIETY_BAND of the best fit) in an order
 * drawn from `seed`; the rest keep their place. Blend phrases keep theirs, so a blend's opening
 * is still its best fit.
 */
export function varyLeaders(ranked: readonly RankedPhrase[], seed: number): RankedPhrase[] {
  const best = ranked.find((r) => r.fit > 0 && !isBlendPhrase(r.phrase) && r.phrase.spread < 180)?.fit;
  if (best === undefined) return [...ranked];
  const leaders: RankedPhrase[] = [];
  const rest: RankedPhrase[] = [];
  // Only the advice for a part of the circle takes turns: phrases for everybody (notes, the
  // person's own role and trait phrases) keep their place, so they never change whose turn it is.
  for (const r of ranked) (r.fit > 0 && r.fit >= best - VARIETY_BAND && !isBlendPhrase(r.phrase) && r.phrase.spread < 180 ? leaders : rest).push(r);
  const next = seededRandom(seed);
  for (let i = leaders.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    const a = leaders[i];
    const b = leaders[j];
    if (a !== undefined && b !== undefined) [leaders[i], leaders[j]] = [b, a];
  }
  // Blend phrases and the rest follow in their ranked order; blends first where they led.
  const blendsFirst = rest.filter((r) => isBlendPhrase(r.phrase) && r.fit >= best);
  return [...blendsFirst, ...leaders, ...rest.filter((r) => !blendsFirst.includes(r))];
}

/**
 * Above WIDEN_BELOW a phrase's fit no longer depends on strength (spreads stop widening, blend
 * phrases are filtered out), only whether its limits admit the point: strengths there between
 * the same limits rank every phrase alike, so a cache can key them by class.
 */
export function strengthLimits(phrases: readonly Phrase[]): number[] {
  const limits = new Set<number>(BAND_LIMITS);
  for (const phrase of phrases) {
    if (phrase.minIntensity !== undefined) limits.add(Math.ceil(phrase.minIntensity));
    if (phrase.maxIntensity !== undefined) limits.add(Math.floor(phrase.maxIntensity) + 1);
  }
  return [...limits].filter((limit) => limit > WIDEN_BELOW).sort((a, b) => a - b);
}

/** Equal for two strengths only if every phrase ranks alike at both (same angle and claims). */
export function strengthClass(strength: number, limits: readonly number[]): string {
  if (strength < WIDEN_BELOW || BLEND_PHRASE_MAX >= WIDEN_BELOW) return String(strength);
  return `>${limits.filter((limit) => limit <= strength).length}`;
}
