/**
 * One side of a Connect composition (a searched person, a sender, a recipient): a given name
 * and a trait estimate. The composers only ever read the point on the DISC circle, the
 * nearest of the four pure styles, and an escaped name, so those are worked out here once.
 */
import { escapeHtml } from '../shared/html.ts';
import { traitsToPoint } from '../personality/circle.ts';
import type { DiscPoint, TraitEstimate } from '../personality/types.ts';
import { pointConfidence } from '../personality/views.ts';
import { evidenceLevel } from './individual.ts';
import { BLEND_INTENSITY, positionOf, type CirclePosition } from './rank.ts';
import { cleanFirstName } from './text.ts';

export interface Party {
  firstName: string | null;
  /** Only used to tell apart two people of the same given name in one text (C3). */
  lastName?: string | null;
  estimate: TraitEstimate;
  title?: string | null;
}

/** The four pure styles; each owns the quarter of the circle centred on its axis. */
export type Style = 'D' | 'I' | 'S' | 'C';

/** Axis of each style (DESIGN.md §1): I 45°, D 135°, C 225°, S 315°. */
export const STYLE_AXES: Readonly<Record<Style, number>> = { I: 45, D: 135, C: 225, S: 315 };

export interface PartyView {
  point: DiscPoint;
  at: CirclePosition;
  /** The quarter of the circle the point lies in. */
  style: Style;
  /** The style on the nearer side of the quarter (the "blend" direction). */
  secondary: Style;
  /** Near the centre the style is a lean, not a trait: composers soften what they say. */
  blend: boolean;
  /**
   * The placement rests on thin evidence (individual.ts evidenceLevel, under
   * TENTATIVE_CONFIDENCE, as the person's own profile reads it): composers word what they say
   * about this person as a possibility, not a fact, and do not call them balanced either.
   */
  tentative: boolean;
  /** First name, cleaned but NOT escaped (plain text), or null. */
  name: string | null;
  /** First name escaped for HTML, or null. */
  htmlName: string | null;
}

/** Quarter of the circle: I [0, 90), D [90, 180), C [180, 270), S [270, 360). */
export function styleAt(angle: number): Style {
  if (angle < 90) return 'I';
  if (angle < 180) return 'D';
  if (angle < 270) return 'C';
  return 'S';
}

const CLOCKWISE: Readonly<Record<Style, Style>> = { I: 'S', D: 'I', C: 'D', S: 'C' };
const COUNTER: Readonly<Record<Style, Style>> = { I: 'D', D: 'C', C: 'S', S: 'I' };

export function viewParty(party: Party): PartyView {
  const point = traitsToPoint(party.estimate.scores);
  const at = positionOf(point);
  const style = styleAt(at.angle);
  const secondary = at.angle >= STYLE_AXES[style] ? COUNTER[style] : CLOCKWISE[style];
  const name = cleanFirstName(party.firstName);
  return {
    point,
    at,
    style,
    secondary,
    blend: at.intensity < BLEND_INTENSITY,
    tentative: evidenceLevel(pointConfidence(party.estimate.confidence)) === 'thin',
    name,
    htmlName: name === null ? null : escapeHtml(name),
  };
}
