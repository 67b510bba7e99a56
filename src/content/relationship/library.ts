/**
 * The relationship library (C3): prose written for a pair of people, not reused from the
 * single-person phrases. Three files, all tagged by circle position:
 *
 * - `needs.json`: per topic and style, what a person of that style needs from the other;
 *   `{self}` and `{other}` name the two.
 * - `dynamics.json`: per topic and unordered pair of styles (DD … DS, IC), where the two clash
 *   and how to bridge it; `{D}`, `{I}`, `{S}`, `{C}` name the person of that style, and
 *   `{one}`, `{two}` the two people of a same-style pair. `<br>` separates clash and bridge.
 * - `overview.json`: the overview's sentences, by pair, by the angular relation of the two
 *   points (same type, close, a quarter apart, far), by the way a person's style leans toward
 *   a neighbouring one (`{self}`), a note for a blend, and a note for a tentative placement.
 *   A pair has one entry for each set of its people whose placement is tentative (`tentative`:
 *   their placeholders; none, the firm text): the pair sentence is a claim about both, so it
 *   is written again, hedged for the person whose evidence is thin.
 *
 * An entry may say that some of the people it names lose track of details (`loose`: their
 * placeholders, or `self`). When a personality test measured one of them as careful, the entry
 * gives way to its `if_careful` text, or is left out: the advice must not contradict the test.
 * The other way round, `careful` lists the people it calls careful, orderly or thorough; when a
 * test measured one of them as low in conscientiousness, `if_loose` is said instead, or nothing.
 *
 * A needs or dynamics entry that states a person's behaviour has `if_tentative`: the same
 * text hedged ("may", "is likely to"), said when a person it describes is tentative (needs:
 * `{self}`; dynamics: either of the two); the advice after its first `<br>` is the firm text's.
 * With a care variant as well it has the combined `if_careful_tentative` / `if_loose_tentative`.
 *
 * Read and checked once at start-up (load-content.ts: its schema, then `validateRelationshipLibrary`
 * for what a schema cannot say); a broken file stops the start.
 */
import type { Style } from '../party.ts';
import { HEDGE, HEDGE_MISSING } from '../hedge.ts';
import { isRecord } from '../../shared/records.ts';

export const RELATIONSHIP_TOPICS = [
  'change', 'communication', 'conflict', 'feedback', 'group',
  'instruct', 'motivate', 'personal', 'stress', 'work',
] as const;
export type RelationshipTopic = (typeof RELATIONSHIP_TOPICS)[number];

export const STYLES: readonly Style[] = ['D', 'I', 'S', 'C'];
/** Unordered style pairs, each written once in this order of letters. */
export const PAIRS = ['DD', 'II', 'SS', 'CC', 'DI', 'IS', 'SC', 'CD', 'DS', 'IC'] as const;
export type Pair = (typeof PAIRS)[number];
export const RELATIONS = ['same', 'close', 'square', 'far'] as const;
export type Relation = (typeof RELATIONS)[number];

/**
 * Whom the text calls loose with details, and what it says instead when a test measured one of
 * them as careful; whom it calls careful, and what it says instead when a test measured one of
 * them as loose (conscientiousness −0.3 or lower).
 */
export interface CareRule { loose?: readonly string[]; ifCareful?: string; careful?: readonly string[]; ifLoose?: string }
/**
 * A topic's wording for a person whose placement is tentative (needs: `{self}`; dynamics:
 * either of the two): `if_tentative` hedges the text, and where the entry also has a care
 * variant, `if_careful_tentative` / `if_loose_tentative` hedge that one (a test's measure
 * picks the variant, the evidence its wording).
 */
export interface TentativeRule { ifTentative?: string; ifCarefulTentative?: string; ifLooseTentative?: string }
export interface NeedsEntry extends CareRule, TentativeRule { id: string; topic: RelationshipTopic; style: Style; text: string }
export interface DynamicsEntry extends CareRule, TentativeRule { id: string; topic: RelationshipTopic; pair: Pair; text: string }
/** A style leaning toward a neighbour: the first letter is the style, the second the lean. */
export const LEANS = ['DI', 'DC', 'ID', 'IS', 'SI', 'SC', 'CS', 'CD'] as const;
export type Lean = (typeof LEANS)[number];
/** Notes beside the pair sentence: a balanced style, a tentative placement; of one person or both. */
const NOTE_KINDS = ['blend', 'tentative'] as const;
const NOTE_KEYS = ['any', 'both'] as const;
export type OverviewEntry =
  | ({ id: string; kind: 'pair'; key: Pair; text: string; tentative: readonly string[] } & CareRule)
  | ({ id: string; kind: 'lean'; key: Lean; text: string } & CareRule)
  | { id: string; kind: 'relation'; key: Relation; text: string }
  | { id: string; kind: 'blend'; key: 'any'; text: string }
  | { id: string; kind: 'blend'; key: 'both'; text: string }
  | { id: string; kind: 'tentative'; key: 'any'; text: string }
  | { id: string; kind: 'tentative'; key: 'both'; text: string };

export interface RelationshipLibrary {
  needs: readonly NeedsEntry[];
  dynamics: readonly DynamicsEntry[];
  overview: readonly OverviewEntry[];
}

function oneOf<T extends string>(list: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (list as readonly string[]).includes(value);
}

/** Placeholders a pair's text may use: the styles in the pair, or one/two for a same-style pair. */
export function placeholdersFor(pair: Pair): string[] {
  const [a, b] = [pair[0], pair[1]];
  return a === b ? ['one', 'two'] : [a ?? '', b ?? ''];
}

/** Problems with a template: only known placeholders, only <br> as markup, balanced markers. */
export function templateProblems(text: string, allowed: readonly string[]): string[] {
  const problems: string[] = [];
  if (text.trim() === '' || text !== text.trim()) problems.push('text is empty or padded');
  for (const match of text.matchAll(/\{([^{}]*)\}/g)) {
    if (!allowed.includes(match[1] ?? '')) problems.push(`placeholder {${match[1] ?? ''}} not allowed here`);
  }
  if (/[{}]/.test(text.replace(/\{[^{}]*\}/g, ''))) problems.push('stray brace');
  if (/[<>]/.test(text.replaceAll('<br>', ''))) problems.push('markup other than <br>');
  if ((text.split('**').length - 1) % 2 !== 0) problems.push('unbalanced ** markers');
  if (/&/.test(text)) problems.push('write "and", not &');
  return problems;
}

/** Checks the three parsed files; returns the library and every problem found. */
export function validateRelationshipLibrary(raw: { needs: unknown; dynamics: unknown; overview: unknown }): {
  library: RelationshipLibrary;
  problems: string[];
} {
  const problems: string[] = [];
  const ids = new Set<string>();
  const entries = (file: string, data: unknown): Record<string, unknown>[] => {
    if (!Array.isArray(data)) {
      problems.push(`${file}.json: must be an array`);
      return [];
    }
    return data.filter((entry: unknown, index): entry is Record<string, unknown> => {
      const ok = isRecord(entry) && typeof entry.id === 'string' && typeof entry.text === 'string';
      if (!ok) problems.push(`${file}.json[${index}]: needs string id and text`);
      else if (ids.has(String(entry.id))) problems.push(`${file}.json ${String(entry.id)}: duplicate id`);
      else ids.add(String(entry.id));
      return ok;
    });
  };
  /** `loose`/`if_careful` and `careful`/`if_loose`, checked against the placeholders the entry may use. */
  const careRule = (entry: Record<string, unknown>, allowed: readonly string[], local: string[]): CareRule => {
    const rule: CareRule = {};
    const slotsOf = (key: 'loose' | 'careful'): string[] | undefined => {
      const value = entry[key];
      if (value === undefined) return undefined;
      const slots = Array.isArray(value) ? value.filter((s): s is string => typeof s === 'string' && allowed.includes(s)) : [];
      if (!Array.isArray(value) || slots.length === 0 || slots.length !== value.length) {
        local.push(`${key} must list some of ${allowed.join(', ')}`);
        return undefined;
      }
      return slots;
    };
    const variantOf = (key: 'if_careful' | 'if_loose', needs: 'loose' | 'careful', slots: string[] | undefined): string | undefined => {
      const value = entry[key];
      if (value === undefined) return undefined;
      if (typeof value !== 'string') local.push(`${key} must be text`);
      else if (slots === undefined) local.push(`${key} needs ${needs}`);
      else {
        local.push(...templateProblems(value, allowed).map((p) => `${key}: ${p}`));
        return value;
      }
      return undefined;
    };
    const loose = slotsOf('loose');
    const careful = slotsOf('careful');
    if (loose && careful?.some((slot) => loose.includes(slot))) local.push('nobody can be both loose and careful in one text');
    const ifCareful = variantOf('if_careful', 'loose', loose);
    const ifLoose = variantOf('if_loose', 'careful', careful);
    if (loose) rule.loose = loose;
    if (ifCareful !== undefined) rule.ifCareful = ifCareful;
    if (careful) rule.careful = careful;
    if (ifLoose !== undefined) rule.ifLoose = ifLoose;
    return rule;
  };
  /**
   * `if_tentative` (and its careful/loose counterparts) for a needs or dynamics entry: template
   * checks, a hedge in the description (before the first `<br>`), not the firm text again, and
   * the advice (from the first `<br>` on) word for word the firm text's. An entry with a care
   * variant and `if_tentative` needs the combined variant too, and only then has one.
   */
  const tentativeRule = (entry: Record<string, unknown>, allowed: readonly string[], care: CareRule, local: string[]): TentativeRule => {
    const rule: TentativeRule = {};
    const advice = (text: string): string => (text.includes('<br>') ? text.slice(text.indexOf('<br>')) : '');
    const described = (text: string): string => (text.includes('<br>') ? text.slice(0, text.indexOf('<br>')) : text);
    const variant = (key: string, firm: string | undefined): string | undefined => {
      const value = entry[key];
      if (value === undefined) return undefined;
      if (typeof value !== 'string') {
        local.push(`${key} must be text`);
        return undefined;
      }
      local.push(...templateProblems(value, allowed).map((p) => `${key}: ${p}`));
      if (firm === undefined) return value;
      if (value === firm) local.push(`${key} repeats the firm text`);
      if (!HEDGE.test(described(value))) local.push(`${key} ${HEDGE_MISSING} before its advice`);
      if (advice(value) !== advice(firm)) local.push(`${key} must keep the firm text's advice (from the first <br>) word for word`);
      return value;
    };
    const ifTentative = variant('if_tentative', String(entry.text));
    if (ifTentative !== undefined) rule.ifTentative = ifTentative;
    for (const [key, base, field, baseKey] of [
      ['if_careful_tentative', care.ifCareful, 'ifCarefulTentative', 'if_careful'],
      ['if_loose_tentative', care.ifLoose, 'ifLooseTentative', 'if_loose'],
    ] as const) {
      if (entry[key] !== undefined && (base === undefined || ifTentative === undefined)) local.push(`${key} needs ${baseKey} and if_tentative`);
      else if (entry[key] === undefined && base !== undefined && ifTentative !== undefined) local.push(`${key} is missing: ${baseKey} and if_tentative need it`);
      const value = variant(key, base);
      if (value !== undefined && base !== undefined && ifTentative !== undefined) rule[field] = value;
    }
    return rule;
  };
  /** `tentative`: the placeholders of the people whose placement this pair text hedges, in the pair's order. */
  const tentativeSlots = (entry: Record<string, unknown>, allowed: readonly string[], local: string[]): string[] => {
    if (entry.tentative === undefined) return [];
    const listed = Array.isArray(entry.tentative) ? entry.tentative.filter((s): s is string => typeof s === 'string' && allowed.includes(s)) : [];
    const valid = Array.isArray(entry.tentative) && listed.length > 0 && listed.length === entry.tentative.length && new Set(listed).size === listed.length;
    if (!valid) local.push(`tentative must list some of ${allowed.join(', ')}, each once`);
    return allowed.filter((slot) => listed.includes(slot));
  };
  const check = (file: string, entry: Record<string, unknown>, local: string[]): boolean => {
    if (!new RegExp(`^${file}-\\d{3,}$`).test(String(entry.id))) local.push(`id must look like "${file}-001"`);
    problems.push(...local.map((p) => `${file}.json ${String(entry.id)}: ${p}`));
    return local.length === 0;
  };
  const needs: NeedsEntry[] = [];
  for (const e of entries('needs', raw.needs)) {
    const local = templateProblems(String(e.text), ['self', 'other']);
    const care = careRule(e, ['self', 'other'], local);
    const rule = { ...care, ...tentativeRule(e, ['self', 'other'], care, local) };
    if (!oneOf(RELATIONSHIP_TOPICS, e.topic)) local.push('unknown topic');
    if (!oneOf(STYLES, e.style)) local.push('style must be D, I, S or C');
    if (check('needs', e, local) && oneOf(RELATIONSHIP_TOPICS, e.topic) && oneOf(STYLES, e.style)) {
      needs.push({ id: String(e.id), topic: e.topic, style: e.style, text: String(e.text), ...rule });
    }
  }
  const dynamics: DynamicsEntry[] = [];
  for (const e of entries('dynamics', raw.dynamics)) {
    const local: string[] = [];
    let rule: CareRule & TentativeRule = {};
    if (!oneOf(RELATIONSHIP_TOPICS, e.topic)) local.push('unknown topic');
    if (!oneOf(PAIRS, e.pair)) local.push(`pair must be one of ${PAIRS.join(', ')}`);
    else {
      local.push(...templateProblems(String(e.text), placeholdersFor(e.pair)));
      const care = careRule(e, placeholdersFor(e.pair), local);
      rule = { ...care, ...tentativeRule(e, placeholdersFor(e.pair), care, local) };
    }
    if (check('dynamics', e, local) && oneOf(RELATIONSHIP_TOPICS, e.topic) && oneOf(PAIRS, e.pair)) {
      dynamics.push({ id: String(e.id), topic: e.topic, pair: e.pair, text: String(e.text), ...rule });
    }
  }
  const overview: OverviewEntry[] = [];
  const pairVariants = new Set<string>();
  for (const e of entries('overview', raw.overview)) {
    const local: string[] = [];
    const id = String(e.id);
    const text = String(e.text);
    if (e.kind === 'pair' && oneOf(PAIRS, e.key)) {
      local.push(...templateProblems(text, placeholdersFor(e.key)));
      const rule = careRule(e, placeholdersFor(e.key), local);
      const tentative = tentativeSlots(e, placeholdersFor(e.key), local);
      const variant = `${e.key} ${tentative.join('+')}`;
      if (pairVariants.has(variant)) local.push(`a second pair entry for ${e.key} with the same tentative people`);
      pairVariants.add(variant);
      if (check('overview', e, local)) overview.push({ id, kind: 'pair', key: e.key, text, tentative, ...rule });
    } else if (e.kind === 'relation' && oneOf(RELATIONS, e.key)) {
      local.push(...templateProblems(text, []));
      if (check('overview', e, local)) overview.push({ id, kind: 'relation', key: e.key, text });
    } else if (e.kind === 'lean' && oneOf(LEANS, e.key)) {
      local.push(...templateProblems(text, ['self']));
      const rule = careRule(e, ['self'], local);
      if (check('overview', e, local)) overview.push({ id, kind: 'lean', key: e.key, text, ...rule });
    } else if (oneOf(NOTE_KINDS, e.kind) && oneOf(NOTE_KEYS, e.key)) {
      // A note about one person names them as {blend} or {self}; one about both, {one} and {two}.
      local.push(...templateProblems(text, e.key === 'both' ? ['one', 'two'] : [e.kind === 'blend' ? 'blend' : 'self']));
      if (check('overview', e, local)) overview.push({ id, kind: e.kind, key: e.key, text });
    } else {
      check('overview', e, ['kind/key must be pair/<pair>, relation/<same|close|square|far>, lean/<DI…CD>, blend/any|both or tentative/any|both']);
    }
  }
  return { library: { needs, dynamics, overview }, problems };
}
