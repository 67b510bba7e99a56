/**
 * The phrase library (docs/architecture.md, "Content as data"): advice is data, one JSON file per section under
 * `./phrases/`. load-content.ts reads every file once at start-up, checks it against its schema
 * (content-schemas.ts) and then with `phraseProblems` below, and hands out typed, frozen phrases.
 *
 * A broken file stops the start, with every problem listed, because a typo in a phrase would
 * otherwise surface as odd text in a customer's profile.
 */
import type { EvidenceLevel } from './reading.ts';
import type { RoleFamily } from './roles.ts';
import type { OtherTrait, TraitLevel } from './traits.ts';
import { HEDGE, HEDGE_MISSING } from './hedge.ts';

/** Profile sections, in the order a profile presents them. */
export const SECTIONS = [
  'overview',
  'behavior',
  'motivation',
  'drainer',
  'communication',
  'meeting',
  'selling',
  'working_together',
  'do',
  'dont',
  'emailing',
  'building_trust',
  'qualities',
] as const;
export type Section = (typeof SECTIONS)[number];

/** The recommendation blocks of the Connect profile (C2) that carry their own overview. */
export const OVERVIEW_SECTIONS = [
  'emailing',
  'communication',
  'motivations',
  'behavior',
  'building_trust',
  'selling',
  'working_together',
] as const;
export type OverviewSection = (typeof OVERVIEW_SECTIONS)[number];

/** File name (without .json) of the C2 section overviews. */
export const SECTION_OVERVIEW_FILE = 'section_overview';

export interface Phrase {
  id: string;
  /** Centre of the part of the circle the phrase fits, degrees in [0, 360]. */
  angle: number;
  /** Half-width, in degrees, of the arc where the phrase still fits; 180 fits everybody. */
  spread: number;
  text: string;
  minIntensity?: number;
  maxIntensity?: number;
  /** Only for profiles resting on this much evidence (reading.ts evidenceLevel). */
  evidence?: readonly EvidenceLevel[];
  /** Only for people whose trait is at this end (traits.ts knownTraitLevels); all must match. */
  traits?: Readonly<Partial<Record<OtherTrait, TraitLevel>>>;
  /** Only for people whose title falls in one of these role families (roles.ts roleFamily). */
  roles?: readonly RoleFamily[];
  /**
   * What the phrase claims about the person, as `topic:side` (claims.ts: `drive:hard`,
   * `agenda:wanders`, `composure:steady`, …). A phrase is used only for readings that claim each
   * directional side it takes (candidates.ts); two phrases taking different sides of one topic
   * never stand on one page.
   */
  stance?: readonly string[];
  /**
   * The sentence worded as a tendency, where the automatic wording (wording.ts hedge) would not
   * read well; used where the evidence asks for it.
   */
  tentative?: string;
  /**
   * What the sentence is about, one lower-case word (`care`, `goodwill`, ...): a section holds
   * one phrase per theme, so a mild lean is not said three ways in one overview (picking.ts).
   */
  theme?: string;
}

export interface SectionOverviewPhrase extends Phrase {
  section: OverviewSection;
}

export interface PhraseLibrary {
  sections: Readonly<Record<Section, readonly Phrase[]>>;
  sectionOverviews: readonly SectionOverviewPhrase[];
}

/** Problems with a phrase's text; the text is a template, so its syntax must be exact. */
export function textProblems(text: string, singleWord: boolean): string[] {
  const problems: string[] = [];
  if (text.trim() === '') return ['text is empty'];
  if (text !== text.trim()) problems.push('text has leading or trailing whitespace');
  const withoutPlaceholder = text.replaceAll('{first}', '');
  if (/[{}]/.test(withoutPlaceholder)) problems.push('text has a placeholder other than {first}, or a stray brace');
  const markers = text.split('**').length - 1;
  if (markers % 2 !== 0) problems.push('text has unbalanced ** markers');
  if (text.includes('****')) problems.push('text has an empty ** ** pair');
  if (text.replaceAll('**', '').includes('*')) problems.push('text has a lone *');
  if (singleWord && /\s/.test(text)) problems.push('qualities must be single words');
  return problems;
}

/**
 * What the schema (content-schemas.ts) cannot say of one file's phrases: ids named for the file,
 * template syntax, a real hedge in `tentative`, a window whose ends are in order. Each problem
 * carries the JSON pointer of its field.
 */
export function phraseProblems(fileSection: string, phrases: readonly Phrase[]): { pointer: string; problem: string }[] {
  const problems: { pointer: string; problem: string }[] = [];
  phrases.forEach((phrase, index) => {
    const at = (field: string, problem: string) => problems.push({ pointer: `/${index}/${field}`, problem: `${phrase.id}: ${problem}` });
    if (!phrase.id.startsWith(`${fileSection}-`)) at('id', `id must look like "${fileSection}-001"`);
    for (const problem of textProblems(phrase.text, fileSection === 'qualities')) at('text', problem);
    if (phrase.tentative !== undefined) {
      for (const problem of textProblems(phrase.tentative, false)) at('tentative', `tentative: ${problem}`);
      if (!HEDGE.test(phrase.tentative)) at('tentative', `tentative ${HEDGE_MISSING}`);
    }
    if (phrase.minIntensity !== undefined && phrase.maxIntensity !== undefined && phrase.minIntensity > phrase.maxIntensity) {
      at('minIntensity', 'minIntensity is above maxIntensity');
    }
  });
  return problems;
}
