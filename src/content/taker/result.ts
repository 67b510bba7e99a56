/**
 * What the result page and its PDF say to the person who took the test (result.json): written
 * to them, in the second person, where the phrase library speaks of a person to the people who
 * look them up. Content as data, read and checked once at start-up (load-content.ts: its schema,
 * then `parseTakerResultContent`): a broken file stops start-up with every problem listed.
 *
 * - `styles`: per DISC style (D, I, S, C), a name, a one-line gist and the lists the page
 *   shows: strengths, blind spots, how you communicate, how you work, what drains you.
 * - `types`: per DISC type (DI … Id), what the type and its archetype mean, in one sentence.
 * - `balanced`: the same lists for a style near the centre of the map (a blend), and the
 *   sentence that names its lean (`{style}`, `{archetype}`).
 * - `traits`: for the traits the test measures apart from the circle, at a marked level, one
 *   strength, blind spot and working habit each.
 * - `scales`: the name of each bar and what it measures.
 *
 * An entry may carry `claims` (a side of a measured trait, `structure:orderly`, …, as in the
 * phrase library): it is left out for a taker whose test measured the other side.
 */
import { isRecord } from '../../shared/records.ts';

/**
 * The traits the test measures beside the circle (src/assessment: the IPIP-NEO openness and
 * conscientiousness items), each with the side of it an entry may claim, in the phrase library's
 * `topic:side` terms (content/claims.ts).
 */
export const MEASURED_STANCES = {
  openness: { high: 'novelty:seeks', low: 'novelty:wary' },
  conscientiousness: { high: 'structure:orderly', low: 'structure:loose' },
} as const;
/** Every side an entry's `claims` may take. */
export const CLAIM_STANCES: readonly string[] = Object.values(MEASURED_STANCES).flatMap((stances) => [stances.high, stances.low]);

export const RESULT_STYLES = ['D', 'I', 'S', 'C'] as const;
export type ResultStyle = (typeof RESULT_STYLES)[number];
export const RESULT_LISTS = ['strengths', 'blindSpots', 'communication', 'work', 'drains'] as const;
export type ResultList = (typeof RESULT_LISTS)[number];
/** The lists a measured trait adds to. */
export const TRAIT_LISTS = ['strengths', 'blindSpots', 'work'] as const;
export type TraitList = (typeof TRAIT_LISTS)[number];
export const RESULT_TYPES = ['DI', 'Di', 'D', 'Dc', 'CD', 'Cd', 'C', 'Cs', 'SC', 'Sc', 'S', 'Si', 'IS', 'Is', 'I', 'Id'] as const;
export const MEASURED = ['conscientiousness', 'openness'] as const;
export type MeasuredTrait = (typeof MEASURED)[number];
export const SCALES = ['d', 'i', 's', 'c', 'intensity', 'conscientiousness', 'openness'] as const;
export type Scale = (typeof SCALES)[number];

export interface ResultEntry {
  text: string;
  /** A side of a measured trait the sentence takes; left out where the test measured the other. */
  claims?: string;
}

export interface StyleContent extends Record<ResultList, readonly ResultEntry[]> {
  name: string;
  gist: string;
}

export interface TakerResultContent {
  styles: Readonly<Record<ResultStyle, StyleContent>>;
  types: Readonly<Record<string, string>>;
  balanced: Readonly<Record<ResultList, readonly ResultEntry[]>> & { gist: string; lean: string };
  traits: Readonly<Record<MeasuredTrait, Record<'high' | 'low', Record<TraitList, ResultEntry>>>>;
  scales: Readonly<Record<Scale, { name: string; means: string }>>;
}

export class TakerResultContentError extends Error {
  constructor(readonly problems: string[]) {
    super(`The result page's content (src/content/taker/result.json) is not valid:\n- ${problems.join('\n- ')}`);
    this.name = 'TakerResultContentError';
  }
}

/** Every sentence speaks to the taker: a sentence without "you" or "your" was written about someone. */
const SECOND_PERSON = /\b(you|your|yours|yourself)\b/i;
/** Written about a person to others (the phrase library's voice, with its name placeholder): wrong here. */
const THIRD_PERSON = /\{first\}|\bthis person\b/i;
const MAX_CHARS = 200;
/** Counts a style's lists need so every kind of type (pure, leaning, even) fills its places. */
const MIN_PER_LIST: Record<ResultList, number> = { strengths: 4, blindSpots: 4, communication: 3, work: 3, drains: 3 };

function checkSentence(where: string, value: unknown, problems: string[], placeholders: readonly string[] = []): string {
  if (typeof value !== 'string' || value.trim() === '') {
    problems.push(`${where}: expected a sentence`);
    return '';
  }
  const unfilled = (value.match(/\{[^}]*\}/g) ?? []).filter((p) => !placeholders.includes(p));
  if (unfilled.length > 0) problems.push(`${where}: unknown placeholder ${unfilled.join(', ')}`);
  if (value.length > MAX_CHARS) problems.push(`${where}: longer than ${MAX_CHARS} characters`);
  if (value.includes('**') || /[<>]/.test(value)) problems.push(`${where}: plain text only (no markers or markup)`);
  if (THIRD_PERSON.test(value)) problems.push(`${where}: speaks of the taker in the third person`);
  return value;
}

function checkEntry(where: string, value: unknown, problems: string[], seen: Set<string>): ResultEntry {
  if (!isRecord(value)) {
    problems.push(`${where}: expected {"text", "claims"?}`);
    return { text: '' };
  }
  const text = checkSentence(`${where}.text`, value.text, problems);
  if (text !== '' && !SECOND_PERSON.test(text)) problems.push(`${where}.text: does not speak to the taker ("you", "your")`);
  if (seen.has(text)) problems.push(`${where}.text: said twice in the file`);
  seen.add(text);
  if (value.claims !== undefined && (typeof value.claims !== 'string' || !CLAIM_STANCES.includes(value.claims))) {
    problems.push(`${where}.claims: must be one of ${CLAIM_STANCES.join(', ')}`);
  }
  for (const key of Object.keys(value)) if (key !== 'text' && key !== 'claims') problems.push(`${where}: unknown field "${key}"`);
  return typeof value.claims === 'string' ? { text, claims: value.claims } : { text };
}

function checkLists(where: string, value: Record<string, unknown>, problems: string[], seen: Set<string>, minimum: (list: ResultList) => number) {
  const lists = {} as Record<ResultList, ResultEntry[]>;
  for (const list of RESULT_LISTS) {
    const entries = value[list];
    if (!Array.isArray(entries) || entries.length < minimum(list)) {
      problems.push(`${where}.${list}: expected at least ${minimum(list)} entries`);
      lists[list] = [];
      continue;
    }
    lists[list] = entries.map((entry, i) => checkEntry(`${where}.${list}[${i}]`, entry, problems, seen));
  }
  return lists;
}

/** Checks a parsed file; every problem is listed at once. */
export function parseTakerResultContent(json: unknown): TakerResultContent {
  const problems: string[] = [];
  const seen = new Set<string>();
  const root = isRecord(json) ? json : {};
  if (root.format !== 'rapport-taker-result') problems.push('format: expected "rapport-taker-result"');
  const stylesIn = isRecord(root.styles) ? root.styles : {};
  const styles = {} as Record<ResultStyle, StyleContent>;
  for (const style of RESULT_STYLES) {
    const value = isRecord(stylesIn[style]) ? stylesIn[style] : {};
    if (!isRecord(stylesIn[style])) problems.push(`styles.${style}: missing`);
    styles[style] = {
      name: checkSentence(`styles.${style}.name`, value.name, problems),
      gist: checkSentence(`styles.${style}.gist`, value.gist, problems),
      ...checkLists(`styles.${style}`, value, problems, seen, (list) => MIN_PER_LIST[list]),
    };
  }
  const typesIn = isRecord(root.types) ? root.types : {};
  const types: Record<string, string> = {};
  for (const type of RESULT_TYPES) types[type] = checkSentence(`types.${type}`, typesIn[type], problems);
  for (const key of Object.keys(typesIn)) if (!(RESULT_TYPES as readonly string[]).includes(key)) problems.push(`types.${key}: not a DISC type`);
  const balancedIn = isRecord(root.balanced) ? root.balanced : {};
  const balanced = {
    gist: checkSentence('balanced.gist', balancedIn.gist, problems),
    lean: checkSentence('balanced.lean', balancedIn.lean, problems, ['{style}', '{archetype}']),
    ...checkLists('balanced', balancedIn, problems, seen, () => 2),
  };
  const traitsIn = isRecord(root.traits) ? root.traits : {};
  const traits = {} as Record<MeasuredTrait, Record<'high' | 'low', Record<TraitList, ResultEntry>>>;
  for (const trait of MEASURED) {
    const byLevel = isRecord(traitsIn[trait]) ? traitsIn[trait] : {};
    const levels = {} as Record<'high' | 'low', Record<TraitList, ResultEntry>>;
    for (const level of ['high', 'low'] as const) {
      const lists = isRecord(byLevel[level]) ? byLevel[level] : {};
      const entries = {} as Record<TraitList, ResultEntry>;
      for (const list of TRAIT_LISTS) entries[list] = checkEntry(`traits.${trait}.${level}.${list}`, lists[list], problems, seen);
      levels[level] = entries;
    }
    traits[trait] = levels;
  }
  const scalesIn = isRecord(root.scales) ? root.scales : {};
  const scales = {} as Record<Scale, { name: string; means: string }>;
  for (const scale of SCALES) {
    const value = isRecord(scalesIn[scale]) ? scalesIn[scale] : {};
    scales[scale] = { name: checkSentence(`scales.${scale}.name`, value.name, problems), means: checkSentence(`scales.${scale}.means`, value.means, problems) };
  }
  if (problems.length > 0) throw new TakerResultContentError(problems);
  return { styles, types, balanced, traits, scales };
}
