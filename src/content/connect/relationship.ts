/**
 * C3: advice for a pair of people, from the relationship library (src/content/relationship).
 * Each topic says what each person needs from the other (by their own style) and where this
 * particular pair of styles clashes and how to bridge it; the overview names the pair's
 * shared and differing instincts and how far apart the two points are on the circle.
 *
 * A person whose placement is tentative (thin evidence, as their own profile reads it) is
 * not described as fact: the overview's pair sentence is its hedged variant for them ("may",
 * "if … as their writing suggests"), the relation and their lean are left out (their angle is
 * not known well enough), and a note says what the rest rests on, as their profile's opening
 * does. In the topics, what a tentative person needs, and the pair's dynamics when either is
 * tentative, take their hedged wording (`if_tentative`); the advice on what to do is the same.
 *
 * Names: a missing given name becomes "your contact"; when both are missing, "the first
 * person" and "the second person", so the text can still tell them apart; two people of the
 * same given name are told apart by their last names (tellApart).
 */
import { angularDistance } from '../../personality/circle.ts';
import { STYLE_AXES, viewParty, type Party, type PartyView, type Style } from '../party.ts';
import { isLean, knownTraitLevels, levelEnd } from '../traits.ts';
import {
  PAIRS,
  RELATIONSHIP_TOPICS,
  type Pair,
  type CareRule,
  type TentativeRule,
  type Relation,
  type RelationshipLibrary,
  type RelationshipTopic,
} from '../relationship/library.ts';
import { escapeHtml } from '../../shared/html.ts';
import { cleanFirstName } from '../text.ts';
import { fillTemplate, nameSlot, type NameSlot } from './render.ts';

export const RELATIONSHIP_KEYS = RELATIONSHIP_TOPICS;

export type RelationshipAdvice = { overview: string } & Record<(typeof RELATIONSHIP_KEYS)[number], { phrases: string[] }>;

/** Fallbacks for a missing given name (also used in tests). */
/** Degrees from a style's axis beyond which a person leans toward the neighbouring style (the Di, Dc … types and beyond). */
const LEAN_FROM = 20;

export const CONTACT_FALLBACK = 'your contact';
export const FIRST_FALLBACK = 'the first person';
export const SECOND_FALLBACK = 'the second person';

/**
 * Careful or loose by the reading's known conscientiousness (a test's measure at ±0.3 or beyond:
 * traits.ts knownTraitLevels), as the profile reads it: text estimates are not trusted for this
 * trait (see docs/api-decisions.md). The profile's `structure` claim follows the same level.
 */
function measuredCareful(party: Party): boolean {
  return knownConscientiousness(party) === 'high';
}

function measuredLoose(party: Party): boolean {
  return knownConscientiousness(party) === 'low';
}

function knownConscientiousness(party: Party): 'high' | 'low' | null {
  const level = knownTraitLevels(party.estimate).conscientiousness;
  return level === undefined || isLean(level) ? null : levelEnd(level);
}

/**
 * The entry's text, a variant, or null (left out) when it contradicts a test's measure: it
 * calls someone loose with details whom a test measured as careful (`if_careful` instead), or
 * careful whom a test measured as loose (`if_loose` instead). `slots` says who each placeholder is.
 * Where a person the entry describes is tentative (`unsure`), the wording is the hedged one:
 * `if_tentative`, or for a care variant its hedged counterpart (the test picks the variant,
 * the evidence the wording). An entry without one keeps its text.
 */
function textFor(entry: CareRule & TentativeRule & { text: string }, slots: Readonly<Record<string, Party>>, unsure = false): string | null {
  const any = (list: readonly string[] | undefined, test: (party: Party) => boolean): boolean =>
    list?.some((slot) => {
      const party = slots[slot];
      return party !== undefined && test(party);
    }) === true;
  const notLoose = any(entry.loose, measuredCareful);
  const notCareful = any(entry.careful, measuredLoose);
  if (notLoose && notCareful) return null;
  if (notLoose) return (unsure ? entry.ifCarefulTentative : undefined) ?? entry.ifCareful ?? null;
  if (notCareful) return (unsure ? entry.ifLooseTentative : undefined) ?? entry.ifLoose ?? null;
  return (unsure ? entry.ifTentative : undefined) ?? entry.text;
}

function pairOf(a: Style, b: Style): Pair {
  const found = PAIRS.find((p) => p === `${a}${b}` || p === `${b}${a}`);
  if (found === undefined) throw new Error(`no pair for ${a}${b}`);
  return found;
}

/** How the two points sit on the circle: same type, neighbours, a quarter apart, far apart. */
export function relationOf(one: PartyView, two: PartyView): Relation {
  if (one.reading.type === two.reading.type) return 'same';
  const distance = angularDistance(one.reading.angle, two.reading.angle);
  if (distance < 67.5) return 'close';
  if (distance <= 112.5) return 'square';
  return 'far';
}

/** A name as compared for sameness: case and accents do not tell two people apart. */
function sameNameKey(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * Two people of the same given name ("Daniel needs Daniel to…") cannot be told apart in the
 * advice: they get their last initials where those differ ("Daniel P.", "Daniel K."), else
 * their last names (Park, Parker), else "the first Daniel" and "the second Daniel", in the
 * order of the request's path.
 */
function tellApart(one: PartyView, two: PartyView, lastOne: string | null, lastTwo: string | null): { one: NameSlot; two: NameSlot } | null {
  if (one.name === null || two.name === null || one.htmlName === null || sameNameKey(one.name) !== sameNameKey(two.name)) return null;
  if (lastOne !== null && lastTwo !== null) {
    const initialOne = [...lastOne][0] ?? '';
    const initialTwo = [...lastTwo][0] ?? '';
    if (sameNameKey(initialOne) !== sameNameKey(initialTwo)) {
      return {
        one: { html: escapeHtml(`${one.name} ${initialOne.toUpperCase()}.`), fallback: false },
        two: { html: escapeHtml(`${two.name} ${initialTwo.toUpperCase()}.`), fallback: false },
      };
    }
    if (sameNameKey(lastOne) !== sameNameKey(lastTwo)) {
      return { one: { html: escapeHtml(`${one.name} ${lastOne}`), fallback: false }, two: { html: escapeHtml(`${two.name} ${lastTwo}`), fallback: false } };
    }
  }
  return { one: { html: `the first ${one.htmlName}`, fallback: true }, two: { html: `the second ${two.htmlName ?? one.htmlName}`, fallback: true } };
}

function slotsFor(one: PartyView, two: PartyView, lastOne: string | null, lastTwo: string | null): { one: NameSlot; two: NameSlot } {
  const apart = tellApart(one, two, lastOne, lastTwo);
  if (apart !== null) return apart;
  const bothUnknown = one.htmlName === null && two.htmlName === null;
  return {
    one: nameSlot(one, bothUnknown ? FIRST_FALLBACK : CONTACT_FALLBACK),
    two: nameSlot(two, bothUnknown ? SECOND_FALLBACK : CONTACT_FALLBACK),
  };
}

export function composeRelationship(
  one: Party,
  two: Party,
  library: RelationshipLibrary,
): RelationshipAdvice {
  const a = viewParty(one);
  // A style is its type's first letter, so two people of one type are always of one style.
  const b = viewParty(two);
  const names = slotsFor(a, b, cleanFirstName(one.lastName), cleanFirstName(two.lastName));
  const pair = pairOf(a.style, b.style);
  const sameStyle = a.style === b.style;
  // {D}/{I}/{S}/{C} name the person of that style; a same-style pair uses {one}/{two}.
  const byStyle: Record<string, NameSlot> = { ...names, [a.style]: names.one, [b.style]: names.two };
  // Who each placeholder is, for the entries that call someone loose with details.
  const parties: Record<string, Party> = { one, two, [a.style]: one, [b.style]: two };

  const overviewParts: string[] = [];
  // The pair text written for exactly these tentative people (none: the firm one).
  const unsure = new Set<string>([...(a.tentative ? [sameStyle ? 'one' : a.style] : []), ...(b.tentative ? [sameStyle ? 'two' : b.style] : [])]);
  const pairEntry = library.overview.find(
    (e) => e.kind === 'pair' && e.key === pair && e.tentative.length === unsure.size && e.tentative.every((slot) => unsure.has(slot)),
  );
  const pairText = pairEntry?.kind === 'pair' ? textFor(pairEntry, parties) : null;
  if (pairText !== null) overviewParts.push(fillTemplate(pairText, byStyle));
  const relation = relationOf(a, b);
  // A same-style pair's sentence already says they are close, and an opposite pair's that they
  // are far apart; the relation adds something only where the pair sentence does not say it.
  // Neighbouring styles are a quarter apart by definition, so "square" would repeat too.
  const opposite = pair === 'DS' || pair === 'IC';
  // Near the centre a point's angle says little: "far apart on the circle" beside "both fast
  // and outgoing" would contradict itself for a balanced style, so a blend gets no relation;
  // nor does a tentative placement, whose angle the evidence does not fix.
  const firm = !a.blend && !b.blend && !a.tentative && !b.tentative;
  const says = !firm ? false : sameStyle ? relation === 'same' : opposite ? relation !== 'far' : relation !== 'square';
  if (says) {
    const relationText = library.overview.find((e) => e.kind === 'relation' && e.key === relation);
    if (relationText) overviewParts.push(fillTemplate(relationText.text, {}));
  }
  // Away from their style's axis a person leans toward a neighbouring style; saying how
  // tells apart, say, a D who leans I from one who leans C, who read the same elsewhere.
  for (const [view, slot] of [[a, names.one], [b, names.two]] as const) {
    if (view.blend || view.tentative || angularDistance(view.reading.angle, STYLE_AXES[view.style]) < LEAN_FROM) continue;
    const lean = library.overview.find((e) => e.kind === 'lean' && e.key === `${view.style}${view.secondary}`);
    const leanText = lean?.kind === 'lean' ? textFor(lean, { self: view === a ? one : two }) : null;
    if (leanText !== null) overviewParts.push(fillTemplate(leanText, { self: slot }));
  }
  const note = (kind: 'blend' | 'tentative', key: 'any' | 'both') => library.overview.find((e) => e.kind === kind && e.key === key);
  const blendText = note('blend', 'any');
  const bothText = note('blend', 'both');
  const tentativeText = note('tentative', 'any');
  const bothTentative = note('tentative', 'both');
  if (a.blend && b.blend && !a.tentative && !b.tentative && bothText) {
    // Said first: for two blends everything after it is a lean, not a trait.
    overviewParts.unshift(fillTemplate(bothText.text, names));
  } else if (a.tentative && b.tentative && bothTentative) {
    overviewParts.push(fillTemplate(bothTentative.text, names));
  } else {
    for (const [view, slot] of [[a, names.one], [b, names.two]] as const) {
      // Thin evidence says nothing of where the person sits, so it is not called a balanced style either.
      if (view.tentative && tentativeText) overviewParts.push(fillTemplate(tentativeText.text, { self: slot }));
      else if (view.blend && !view.tentative && blendText) overviewParts.push(fillTemplate(blendText.text, { blend: slot }));
    }
  }

  const topic = (key: RelationshipTopic): { phrases: string[] } => {
    const phrases: string[] = [];
    const needsOf = (view: PartyView, party: Party, otherParty: Party, self: NameSlot, other: NameSlot): void => {
      const entry = library.needs.find((e) => e.topic === key && e.style === view.style);
      const text = entry ? textFor(entry, { self: party, other: otherParty }, view.tentative) : null;
      if (text !== null) phrases.push(fillTemplate(text, { self, other }));
    };
    needsOf(a, one, two, names.one, names.two);
    // The same style needs the same things: saying it twice with the names swapped adds nothing.
    if (!sameStyle) needsOf(b, two, one, names.two, names.one);
    const dynamics = library.dynamics.find((e) => e.topic === key && e.pair === pair);
    // The dynamics describe both people: hedged if either is tentative.
    const dynamicsText = dynamics ? textFor(dynamics, parties, a.tentative || b.tentative) : null;
    if (dynamicsText !== null) phrases.push(fillTemplate(dynamicsText, byStyle));
    return { phrases };
  };
  const topics = Object.fromEntries(RELATIONSHIP_TOPICS.map((key) => [key, topic(key)])) as Record<
    RelationshipTopic,
    { phrases: string[] }
  >;
  return { overview: overviewParts.join(' '), ...topics };
}
