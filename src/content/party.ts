/**
 * One side of a Connect composition (a searched person, a sender, a recipient): a given name, a
 * trait estimate and perhaps a title. The composers read the person's one reading (reading.ts),
 * as their profile does, so a relationship, a message or an email says of them what their
 * profile says: the same style, the same blend or not, the same tentativeness.
 */
import { escapeHtml } from '../shared/html.ts';
import type { TraitEstimate } from '../personality/types.ts';
import { readEstimate, STYLE_AXES, type Reading, type Style } from './reading.ts';
import { cleanFirstName } from './text.ts';

export type { Style } from './reading.ts';
export { STYLE_AXES } from './reading.ts';

export interface Party {
  firstName: string | null;
  /** Only used to tell apart two people of the same given name in one text (C3). */
  lastName?: string | null;
  estimate: TraitEstimate;
  title?: string | null;
}

export interface PartyView {
  reading: Reading;
  /** The type's first letter: Di, DI and Dc are D. */
  style: Style;
  /** The style toward which the reading leans off its style's axis (the nearer neighbour). */
  secondary: Style;
  /** A central reading (a blend): composers say the style is balanced. */
  blend: boolean;
  /** Thin evidence: composers word what they say about this person as a tendency. */
  tentative: boolean;
  /** First name, cleaned but NOT escaped (plain text), or null. */
  name: string | null;
  /** First name escaped for HTML, or null. */
  htmlName: string | null;
}

const CLOCKWISE: Readonly<Record<Style, Style>> = { I: 'S', D: 'I', C: 'D', S: 'C' };
const COUNTER: Readonly<Record<Style, Style>> = { I: 'D', D: 'C', C: 'S', S: 'I' };

/** The neighbouring style on the reading's side of its style's axis. */
export function secondaryOf(reading: Reading): Style {
  if (reading.lean !== null) return reading.lean;
  const offset = ((reading.angle - STYLE_AXES[reading.style] + 540) % 360) - 180;
  return offset >= 0 ? COUNTER[reading.style] : CLOCKWISE[reading.style];
}

export function viewParty(party: Party): PartyView {
  const reading = readEstimate(party.estimate, party.title);
  const name = cleanFirstName(party.firstName);
  return {
    reading,
    style: reading.style,
    secondary: secondaryOf(reading),
    blend: reading.central,
    tentative: reading.evidence === 'thin',
    name,
    htmlName: name === null ? null : escapeHtml(name),
  };
}
