/**
 * Making the exact point matter within a sector. A plain ranking by fit gives everyone of a
 * sector the same phrases: the sector's own phrases always fit better than a neighbour's, and
 * within a sector the order is fixed. Two adjustments, used by the profile composer only (other
 * composers keep rank.ts's plain ranking):
 *
 * - Radius: among equally placed phrases, those written for pronounced traits (minIntensity)
 *   move ahead for people far from the centre and behind for people nearer to it.
 * - Angle: places are shared among the parts of the circle in proportion to their fit (the
 *   D'Hondt rule), so someone near the edge of a sector gets more of the neighbour's advice
 *   than someone at its centre.
 */
import type { RankedPhrase } from './rank.ts';

/**
 * Intensities from here on are read in bands of ten, so the choice stays equal within a band
 * and the selection cache keeps few keys (compose-profile.ts adds BAND_LIMITS to its classes).
 */
const BANDED_FROM = 50;
export const BAND_LIMITS: readonly number[] = [60, 70, 80, 90];
/** Largest move of a pronounced-trait phrase, in fit (sector centres are 0.5 apart at spread 45). */
const PRONOUNCED_SHIFT = 0.15;
/** How far past its minIntensity a person must be before a pronounced phrase leads. */
const PRONOUNCED_MARGIN = 25;

function banded(intensity: number): number {
  return intensity >= BANDED_FROM ? Math.min(90, Math.floor(intensity / 10) * 10) : intensity;
}

function radiusShift(minIntensity: number | undefined, intensity: number): number {
  if (minIntensity === undefined) return 0;
  const past = (banded(intensity) - minIntensity - PRONOUNCED_MARGIN) / PRONOUNCED_MARGIN;
  return PRONOUNCED_SHIFT * Math.max(-1, Math.min(1, past));
}

/** Phrases of one part of the circle: the same centre and spread. */
function groupOf(ranked: RankedPhrase): string {
  return `${ranked.phrase.angle}/${ranked.phrase.spread}`;
}

/**
 * The ranking reordered as described above. Phrases that do not fit (fit <= 0) keep their
 * order at the end, where they only fill thin sections.
 */
export function apportionByPoint(ranked: readonly RankedPhrase[], intensity: number): RankedPhrase[] {
  const fitting: (RankedPhrase & { order: number; group: number })[] = [];
  const rest: RankedPhrase[] = [];
  const groupIds = new Map<string, number>();
  ranked.forEach((r, order) => {
    if (r.fit <= 0) {
      rest.push(r);
      return;
    }
    const key = groupOf(r);
    let group = groupIds.get(key);
    if (group === undefined) {
      group = groupIds.size;
      groupIds.set(key, group);
    }
    const fit = Math.max(1e-6, r.fit + radiusShift(r.phrase.minIntensity, intensity));
    fitting.push({ phrase: r.phrase, fit, order, group });
  });
  fitting.sort((a, b) => (Math.abs(b.fit - a.fit) > 1e-9 ? b.fit - a.fit : a.order - b.order));

  // One queue per part of the circle, best first; each place goes to the queue whose next
  // phrase has the highest fit / (places taken + 1).
  const queues: (typeof fitting)[] = Array.from({ length: groupIds.size }, () => []);
  for (const r of fitting) queues[r.group]?.push(r);
  const heads = new Array<number>(queues.length).fill(0);
  const out: RankedPhrase[] = [];
  while (out.length < fitting.length) {
    let bestGroup = -1;
    let bestQuotient = 0;
    let bestOrder = 0;
    for (let g = 0; g < queues.length; g++) {
      const head = heads[g] ?? 0;
      const next = queues[g]?.[head];
      if (next === undefined) continue;
      const quotient = next.fit / (head + 1);
      if (bestGroup < 0 || quotient > bestQuotient + 1e-9 || (Math.abs(quotient - bestQuotient) <= 1e-9 && next.order < bestOrder)) {
        bestGroup = g;
        bestQuotient = quotient;
        bestOrder = next.order;
      }
    }
    const head = heads[bestGroup] ?? 0;
    const next = queues[bestGroup]?.[head];
    if (next === undefined) break;
    heads[bestGroup] = head + 1;
    out.push({ phrase: next.phrase, fit: next.fit });
  }
  return out.concat(rest);
}
