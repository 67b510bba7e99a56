/**
 * C3: advice for a pair of people, from the relationship library (src/content/relationship).
 * Each topic says what each person needs from the other (by their own style) and where this
 * particular pair of styles clashes and how to bridge it; the overview names the pair's
 * shared and differing instincts and how far apart the two points are on the circle.
 *
 * Names: a missing given name becomes "your contact"; when both are missing, "the first
 * person" and "the second person", so the text can still tell them apart.
 */
import { angleToType, angularDistance } from '../../personality/circle.ts';
import { viewParty, type Party, type PartyView, type Style } from '../party.ts';
import {
  loadRelationshipLibrary,
  PAIRS,
  RELATIONSHIP_TOPICS,
  type Pair,
  type Relation,
  type RelationshipLibrary,
  type RelationshipTopic,
} from '../relationship/library.ts';
import { fillTemplate, nameSlot, type NameSlot } from './render.ts';

export const RELATIONSHIP_KEYS = RELATIONSHIP_TOPICS;

export type RelationshipAdvice = { overview: string } & Record<(typeof RELATIONSHIP_KEYS)[number], { phrases: string[] }>;

/** Fallbacks for a missing given name (also used in tests). */
export const CONTACT_FALLBACK = 'your contact';
export const FIRST_FALLBACK = 'the first person';
export const SECOND_FALLBACK = 'the second person';

function pairOf(a: Style, b: Style): Pair {
  const found = PAIRS.find((p) => p === `${a}${b}` || p === `${b}${a}`);
  if (found === undefined) throw new Error(`no pair for ${a}${b}`);
  return found;
}

/** How the two points sit on the circle: same type, neighbours, a quarter apart, far apart. */
export function relationOf(one: PartyView, two: PartyView): Relation {
  if (angleToType(one.at.angle) === angleToType(two.at.angle)) return 'same';
  const distance = angularDistance(one.at.angle, two.at.angle);
  if (distance < 67.5) return 'close';
  if (distance <= 112.5) return 'square';
  return 'far';
}

function slotsFor(one: PartyView, two: PartyView): { one: NameSlot; two: NameSlot } {
  const bothUnknown = one.htmlName === null && two.htmlName === null;
  return {
    one: nameSlot(one, bothUnknown ? FIRST_FALLBACK : CONTACT_FALLBACK),
    two: nameSlot(two, bothUnknown ? SECOND_FALLBACK : CONTACT_FALLBACK),
  };
}

export function composeRelationship(
  one: Party,
  two: Party,
  library: RelationshipLibrary = loadRelationshipLibrary(),
): RelationshipAdvice {
  const a = viewParty(one);
  const b = viewParty(two);
  const names = slotsFor(a, b);
  const pair = pairOf(a.style, b.style);
  const sameStyle = a.style === b.style;
  // {D}/{I}/{S}/{C} name the person of that style; a same-style pair uses {one}/{two}.
  const byStyle: Record<string, NameSlot> = { ...names, [a.style]: names.one, [b.style]: names.two };

  const overviewParts: string[] = [];
  const pairText = library.overview.find((e) => e.kind === 'pair' && e.key === pair);
  if (pairText) overviewParts.push(fillTemplate(pairText.text, byStyle));
  const relation = relationOf(a, b);
  // A same-style pair's sentence already says they are close, and an opposite pair's that they
  // are far apart; the relation adds something only where the pair sentence does not say it.
  const opposite = pair === 'DS' || pair === 'IC';
  if (sameStyle ? relation === 'same' : !(opposite && relation === 'far')) {
    const relationText = library.overview.find((e) => e.kind === 'relation' && e.key === relation);
    if (relationText) overviewParts.push(fillTemplate(relationText.text, {}));
  }
  const blendText = library.overview.find((e) => e.kind === 'blend');
  for (const [view, slot] of [[a, names.one], [b, names.two]] as const) {
    if (view.blend && blendText) overviewParts.push(fillTemplate(blendText.text, { blend: slot }));
  }

  const topic = (key: RelationshipTopic): { phrases: string[] } => {
    const phrases: string[] = [];
    const needsOf = (view: PartyView, self: NameSlot, other: NameSlot): void => {
      const entry = library.needs.find((e) => e.topic === key && e.style === view.style);
      if (entry) phrases.push(fillTemplate(entry.text, { self, other }));
    };
    needsOf(a, names.one, names.two);
    // The same style needs the same things: saying it twice with the names swapped adds nothing.
    if (!sameStyle) needsOf(b, names.two, names.one);
    const dynamics = library.dynamics.find((e) => e.topic === key && e.pair === pair);
    if (dynamics) phrases.push(fillTemplate(dynamics.text, byStyle));
    return { phrases };
  };
  const topics = Object.fromEntries(RELATIONSHIP_TOPICS.map((key) => [key, topic(key)])) as Record<
    RelationshipTopic,
    { phrases: string[] }
  >;
  return { overview: overviewParts.join(' '), ...topics };
}
