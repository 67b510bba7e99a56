import { AGREEABLENESS_ANGLE, EXTRAVERSION_ANGLE, pointAngle } from '../circle.ts';
import { TRAITS, type EvidenceItem, type StyleEvidence, type Trait } from '../types.ts';
import { PROFESSIONAL_OUTPUT, type TextModel } from './model.ts';
import type { Contribution } from './predict.ts';
import { SIGNALS } from './signal-data.ts';

/**
 * What a person is shown as the reasons for a reading: the phrases of their own text that moved
 * it, with where they stand in the text and what they show in a reader's words ("by Friday" —
 * sets a deadline), and the content words whose weight or meaning moved it. Word classes of the
 * lexicon are never shown: a class cannot tell "crushing our target" from "a crushing blow".
 *
 * A phrase's or word's contribution to each trait mixes the two readings the model holds (as
 * personal writing, as professional writing) in the proportion the text's kind of writing set.
 * Only weights that kept their sign in every cross-validation fold are shown, and words used
 * as names (a capital inside a sentence) never are. Exclamation marks are a signal of their own;
 * their item shows the words they end.
 */

export const EVIDENCE_PER_TRAIT = 5;
export const STYLE_EVIDENCE = 6;

/** Articles, determiners, pronouns, prepositions, conjunctions, auxiliaries, particles. */
const FUNCTION_WORDS = new Set(
  (
    'a an the this that these those some any each every either neither no another such what which whose ' +
    "i me my mine myself i'm i've i'll i'd im ive we us our ours ourselves we're we've we'll you your yours yourself " +
    "you're you've you'll u ur he him his himself she her hers herself he's she's they them their theirs themselves " +
    "they're they've it its it's itself one ones who whom " +
    'of in on at to for from by with about as into onto upon over under through between among against during ' +
    'without within before after above below up down out off near around across along toward towards than via per ' +
    'and or but nor so yet if then because while although though whether since unless until till ' +
    'is am are was were be been being have has had having do does did doing done will would shall should can could ' +
    "may might must isn't aren't wasn't weren't don't doesn't didn't won't wouldn't can't couldn't shouldn't " +
    "haven't hasn't hadn't dont doesnt didnt cant wont isnt wasnt not " +
    'there here where when how why just also too very only even still ever'
  ).split(/\s+/),
);

function isContentWord(word: string): boolean {
  return word.length > 1 && /\p{L}/u.test(word) && !FUNCTION_WORDS.has(word);
}

export interface EvidenceContext {
  model: TextModel;
  /** The text the offsets of the contributions point into (the text as read). */
  text: string;
  /** The text as sent, which the evidence's offsets and terms are taken from. */
  sent: string;
  /** Share of the reading that is personal writing's (1 − the professional share). */
  personalShare: number;
  /** The reading's point, to say which phrases pulled toward it. */
  point: { x: number; y: number };
  /** Offsets in `text` → offsets in the text as sent (labelled.ts and markup.ts removed parts). */
  locate: (start: number, end: number) => { start: number; end: number } | null;
}

interface Item {
  term: string;
  label?: string;
  /** Offsets in the text as read; located in the text as sent only for the items shown. */
  readStart: number;
  readEnd: number;
  values: Record<Trait, number>;
  stable: Record<Trait, boolean>;
  /** Where it stands in the text as sent, once asked (an item may be shown for several traits). */
  shown?: Located;
}

function round4(value: number): number {
  return Number(value.toPrecision(4));
}

function mixedValue(context: EvidenceContext, contribution: Contribution, trait: Trait, t: number): number {
  const personal = contribution.values[t] ?? 0;
  const output = PROFESSIONAL_OUTPUT[trait];
  if (output === undefined || !context.model.professionalTraits.has(trait)) return personal;
  return context.personalShare * personal + (1 - context.personalShare) * (contribution.values[output] ?? 0);
}

function isStableFor(context: EvidenceContext, contribution: Contribution, trait: Trait, t: number): boolean {
  const personal = contribution.stable[t] === 1;
  const output = PROFESSIONAL_OUTPUT[trait];
  if (output === undefined || !context.model.professionalTraits.has(trait)) return personal;
  const professional = contribution.stable[output] === 1;
  return context.personalShare >= 0.5 ? personal : professional;
}

function itemOf(context: EvidenceContext, c: Contribution, label?: string): Item {
  const values = {} as Record<Trait, number>;
  const stable = {} as Record<Trait, boolean>;
  TRAITS.forEach((trait, t) => {
    values[trait] = mixedValue(context, c, trait, t);
    stable[trait] = isStableFor(context, c, trait, t);
  });
  const item: Item = { term: context.text.slice(c.start, c.end), readStart: c.start, readEnd: c.end, values, stable };
  if (label !== undefined) item.label = label;
  return item;
}

/** The phrase (sorted by start, not overlapping) that holds [start, end), by binary search. */
function phraseHolding(phrases: readonly Item[], start: number, end: number): Item | undefined {
  let low = 0;
  let high = phrases.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const phrase = phrases[middle];
    if (phrase === undefined) break;
    if (phrase.readEnd <= start) low = middle + 1;
    else if (phrase.readStart > start) high = middle - 1;
    else return phrase.readStart <= start && end <= phrase.readEnd ? phrase : undefined;
  }
  return undefined;
}

const EXCLAMATION_LABEL = SIGNALS.find((signal) => signal.name === 'exclamation')?.label;

/** One item per phrase; a word inside a phrase adds its weight to the phrase rather than standing alone. */
function itemsOf(context: EvidenceContext, contributions: readonly Contribution[]): Item[] {
  const phrases: Item[] = [];
  for (const c of contributions) {
    const signal = c.signal >= 0 ? SIGNALS[c.signal] : undefined;
    if (signal !== undefined) phrases.push(itemOf(context, c, signal.label));
  }
  // Exclamation spans may overlap the phrases they end; words are looked up in the other phrases.
  const holders = phrases.filter((item) => item.label !== EXCLAMATION_LABEL).sort((a, b) => a.readStart - b.readStart);
  const items: Item[] = [...phrases];
  for (const c of contributions) {
    if (c.signal >= 0 || c.word === undefined || !isContentWord(c.word)) continue;
    const host = phraseHolding(holders, c.start, c.end);
    if (host !== undefined) {
      TRAITS.forEach((trait, t) => {
        host.values[trait] += mixedValue(context, c, trait, t);
      });
      continue;
    }
    items.push(itemOf(context, c));
  }
  return items;
}

interface Located {
  term: string;
  label?: string;
  start?: number;
  end?: number;
}

/** The fields every shown item carries: its words as written, what it shows, and where it stands in the text as sent. */
function located(context: EvidenceContext, item: Item): Located {
  if (item.shown !== undefined) return item.shown;
  const shown: Located = { term: item.term };
  if (item.label !== undefined) shown.label = item.label;
  const span = context.locate(item.readStart, item.readEnd);
  if (span !== null) {
    shown.term = context.sent.slice(span.start, span.end);
    shown.start = span.start;
    shown.end = span.end;
  }
  item.shown = shown;
  return shown;
}

/** `{ ...located(context, item), ...extra }` built field by field, in the same order (spreading cost more than the rest of the item). */
function shownWith<T extends object>(context: EvidenceContext, item: Item, extra: T): Located & T {
  const where = located(context, item);
  const shown: Located = { term: where.term };
  if (where.label !== undefined) shown.label = where.label;
  if (where.start !== undefined) shown.start = where.start;
  if (where.end !== undefined) shown.end = where.end;
  return Object.assign(shown, extra);
}

function toEvidence(context: EvidenceContext, item: Item, weight: number): EvidenceItem {
  return shownWith(context, item, { weight: round4(weight) });
}

/**
 * `list.filter(keep).sort(compare).slice(0, count)` without sorting the whole list: the sort is
 * stable, so among equals the earlier item comes first, and so it does here (an item goes after
 * every kept one it does not beat).
 */
function topOf<T>(list: readonly T[], count: number, keep: (item: T) => boolean, compare: (a: T, b: T) => number): T[] {
  const best: T[] = [];
  for (const item of list) {
    if (!keep(item)) continue;
    let at = best.length;
    while (at > 0 && compare(item, best[at - 1] as T) < 0) at--;
    if (at >= count) continue;
    best.splice(at, 0, item);
    if (best.length > count) best.pop();
  }
  return best;
}

/** Per trait: the phrases and words that moved it most, signed; and the phrases that moved the DISC point. */
export function traitEvidence(context: EvidenceContext, contributions: readonly Contribution[]): { traits: Record<Trait, EvidenceItem[]>; style: StyleEvidence[] } {
  const items = itemsOf(context, contributions);
  const traits = {} as Record<Trait, EvidenceItem[]>;
  for (const trait of TRAITS) {
    if (!context.model.trainedTraits.has(trait)) {
      traits[trait] = [];
      continue;
    }
    const shown = topOf(
      items,
      EVIDENCE_PER_TRAIT,
      (item) => item.stable[trait] && item.values[trait] !== 0,
      (a, b) => Math.abs(b.values[trait]) - Math.abs(a.values[trait]) || a.readStart - b.readStart,
    );
    traits[trait] = shown.map((item) => toEvidence(context, item, item.values[trait]));
  }
  return { traits, style: styleEvidence(context, items) };
}

function unit(degrees: number): { x: number; y: number } {
  const radians = (degrees * Math.PI) / 180;
  return { x: Math.cos(radians), y: Math.sin(radians) };
}

function styleOf(angle: number): StyleEvidence['toward'] {
  return angle < 90 ? 'I' : angle < 180 ? 'D' : angle < 270 ? 'C' : 'S';
}

/**
 * The phrases that moved the DISC point: each item's pull on extraversion and agreeableness as a
 * direction on the circle (circle.ts), its weight the pull along the reading's own direction.
 * Those that pulled toward the reading come first, then the strongest two that pulled away.
 */
function styleEvidence(context: EvidenceContext, items: readonly Item[]): StyleEvidence[] {
  const e = unit(EXTRAVERSION_ANGLE);
  const a = unit(AGREEABLENESS_ANGLE);
  const direction = unit(pointAngle(context.point));
  const scored = items
    .filter((item) => item.label !== undefined && (item.stable.extraversion || item.stable.agreeableness))
    .map((item) => {
      const x = item.values.extraversion * e.x + item.values.agreeableness * a.x;
      const y = item.values.extraversion * e.y + item.values.agreeableness * a.y;
      return { item, toward: styleOf(pointAngle({ x, y })), weight: x * direction.x + y * direction.y };
    })
    .filter(({ weight }) => weight !== 0);
  const supporting = topOf(scored, STYLE_EVIDENCE, ({ weight }) => weight > 0, (p, q) => q.weight - p.weight || p.item.readStart - q.item.readStart);
  const against = topOf(scored, 2, ({ weight }) => weight < 0, (p, q) => p.weight - q.weight || p.item.readStart - q.item.readStart);
  return [...supporting, ...against].map(({ item, toward, weight }) => shownWith(context, item, { toward, weight: round4(weight) }));
}
