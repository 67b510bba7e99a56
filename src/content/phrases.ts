/**
 * The phrase library (docs/architecture.md, "Content as data"): advice is data, one JSON file per section under
 * `./phrases/`. This module reads every file once, checks it against the shared schema
 * (see README.md next to this file) and hands out typed, frozen phrases.
 *
 * A broken file fails loudly at load time, with every problem listed, because a typo in a
 * phrase would otherwise surface as odd text in a customer's profile.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { STANCES } from './claims.ts';
import { EVIDENCE_LEVELS, type EvidenceLevel } from './reading.ts';
import { ROLE_FAMILIES, type RoleFamily } from './roles.ts';
import { OTHER_TRAITS, TRAIT_LEVELS, type OtherTrait, type TraitLevel } from './traits.ts';
import { isRecord } from '../shared/records.ts';
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
  /** Files not present yet; their sections are empty. Sections are authored in parallel. */
  missing: readonly string[];
}

export class PhraseLibraryError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`phrase library is invalid:\n  ${problems.join('\n  ')}`);
    this.name = 'PhraseLibraryError';
  }
}

const DEFAULT_DIR = fileURLToPath(new URL('./phrases/', import.meta.url));
const BASE_KEYS = new Set(['id', 'angle', 'spread', 'text', 'minIntensity', 'maxIntensity', 'evidence', 'traits', 'roles', 'stance', 'theme', 'tentative']);
const THEME_PATTERN = /^[a-z_]+$/;
const STANCE_PATTERN = /^[a-z_]+:[a-z_]+$/;

function isStance(value: unknown): value is string {
  return typeof value === 'string' && STANCE_PATTERN.test(value) && STANCES.has(value);
}
const ID_PATTERN = /^([a-z_]+)-(\d{3,})$/;

function isOverviewSection(value: unknown): value is OverviewSection {
  return typeof value === 'string' && (OVERVIEW_SECTIONS as readonly string[]).includes(value);
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

function isOtherTrait(value: string): value is OtherTrait {
  return (OTHER_TRAITS as readonly string[]).includes(value);
}

function isTraitLevel(value: unknown): value is TraitLevel {
  return typeof value === 'string' && (TRAIT_LEVELS as readonly string[]).includes(value);
}

function isRoleFamily(value: unknown): value is RoleFamily {
  return typeof value === 'string' && (ROLE_FAMILIES as readonly string[]).includes(value);
}

/** `traits` is an object of trait → "high" | "low"; null when it is malformed. */
function parseTraits(value: unknown): Partial<Record<OtherTrait, TraitLevel>> | null {
  if (!isRecord(value) || Object.keys(value).length === 0) return null;
  const traits: Partial<Record<OtherTrait, TraitLevel>> = {};
  for (const [key, level] of Object.entries(value)) {
    if (!isOtherTrait(key) || !isTraitLevel(level)) return null;
    traits[key] = level;
  }
  return traits;
}

function isEvidenceLevel(value: unknown): value is EvidenceLevel {
  return typeof value === 'string' && (EVIDENCE_LEVELS as readonly string[]).includes(value);
}

/** A non-empty list of known names; null when it is anything else. */
function parseList<T>(value: unknown, isMember: (item: unknown) => item is T): T[] | null {
  if (!Array.isArray(value) || value.length === 0 || !value.every(isMember)) return null;
  return [...new Set(value)];
}

function intensityProblem(value: unknown, key: string): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 100) {
    return `${key} must be a number in 0..100`;
  }
  return null;
}

/** Checks one parsed file; returns the phrases and problems (prefixed with file and id). */
export function validatePhraseFile(
  fileSection: string,
  data: unknown,
): { phrases: Phrase[]; problems: string[] } {
  const isOverviewFile = fileSection === SECTION_OVERVIEW_FILE;
  const problems: string[] = [];
  const phrases: Phrase[] = [];
  if (!Array.isArray(data)) return { phrases, problems: [`${fileSection}.json: must be an array`] };
  data.forEach((entry: unknown, index) => {
    const where = `${fileSection}.json[${index}]`;
    if (!isRecord(entry)) {
      problems.push(`${where}: must be an object`);
      return;
    }
    const { id, angle, spread, text, minIntensity, maxIntensity } = entry;
    const label = typeof id === 'string' ? `${where} ${id}` : where;
    const local: string[] = [];
    for (const key of Object.keys(entry)) {
      if (!BASE_KEYS.has(key) && !(isOverviewFile && key === 'section')) local.push(`unknown key "${key}"`);
    }
    const idMatch = typeof id === 'string' ? ID_PATTERN.exec(id) : null;
    if (idMatch === null || idMatch[1] !== fileSection) local.push(`id must look like "${fileSection}-001"`);
    if (typeof angle !== 'number' || !Number.isFinite(angle) || angle < 0 || angle > 360) {
      local.push('angle must be a number in 0..360');
    }
    if (typeof spread !== 'number' || !Number.isFinite(spread) || spread <= 0 || spread > 180) {
      local.push('spread must be a number in (0, 180]');
    }
    if (typeof text !== 'string') local.push('text must be a string');
    else local.push(...textProblems(text, fileSection === 'qualities'));
    for (const [key, value] of [['minIntensity', minIntensity], ['maxIntensity', maxIntensity]] as const) {
      const problem = intensityProblem(value, key);
      if (problem !== null) local.push(problem);
    }
    if (typeof minIntensity === 'number' && typeof maxIntensity === 'number' && minIntensity > maxIntensity) {
      local.push('minIntensity is above maxIntensity');
    }
    const evidence = entry.evidence === undefined ? undefined : parseList(entry.evidence, isEvidenceLevel);
    if (evidence === null) local.push(`evidence must be a non-empty list of ${EVIDENCE_LEVELS.join(', ')}`);
    const traits = entry.traits === undefined ? undefined : parseTraits(entry.traits);
    if (traits === null) local.push(`traits must map ${OTHER_TRAITS.join(', ')} to one of ${TRAIT_LEVELS.join(', ')}`);
    const roles = entry.roles === undefined ? undefined : parseList(entry.roles, isRoleFamily);
    if (roles === null) local.push(`roles must be a non-empty list of ${ROLE_FAMILIES.join(', ')}`);
    const stance = entry.stance === undefined ? undefined : parseList(entry.stance, isStance);
    if (stance === null) local.push('stance must be a non-empty list of "topic:side" named in claims.ts');
    const theme = entry.theme;
    if (theme !== undefined && (typeof theme !== 'string' || !THEME_PATTERN.test(theme))) local.push('theme must be one word (lower-case letters and _)');
    const tentative = entry.tentative;
    if (tentative !== undefined) {
      if (typeof tentative !== 'string') local.push('tentative must be a string');
      else {
        local.push(...textProblems(tentative, false).map((p) => `tentative: ${p}`));
        if (!HEDGE.test(tentative)) local.push(`tentative ${HEDGE_MISSING}`);
      }
    }
    if (isOverviewFile && !isOverviewSection(entry.section)) {
      local.push(`section must be one of ${OVERVIEW_SECTIONS.join(', ')}`);
    }
    if (local.length > 0) {
      problems.push(...local.map((p) => `${label}: ${p}`));
      return;
    }
    // The checks above established every type; rebuild the object so no stray keys survive.
    const phrase: Phrase = { id: String(id), angle: Number(angle), spread: Number(spread), text: String(text) };
    if (typeof minIntensity === 'number') phrase.minIntensity = minIntensity;
    if (typeof maxIntensity === 'number') phrase.maxIntensity = maxIntensity;
    if (evidence) phrase.evidence = Object.freeze(evidence);
    if (traits) phrase.traits = Object.freeze(traits);
    if (roles) phrase.roles = Object.freeze(roles);
    if (stance) phrase.stance = Object.freeze(stance);
    if (typeof theme === 'string') phrase.theme = theme;
    if (typeof tentative === 'string') phrase.tentative = tentative;
    if (isOverviewFile && isOverviewSection(entry.section)) {
      const overview: SectionOverviewPhrase = { ...phrase, section: entry.section };
      phrases.push(overview);
    } else {
      phrases.push(phrase);
    }
  });
  return { phrases, problems };
}

function readFile(dir: string, name: string): { data: unknown; present: boolean; problem?: string } {
  const file = path.join(dir, `${name}.json`);
  if (!existsSync(file)) return { data: [], present: false };
  try {
    return { data: JSON.parse(readFileSync(file, 'utf8')) as unknown, present: true };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { data: [], present: true, problem: `${name}.json: not valid JSON (${message})` };
  }
}

/** Reads and validates every phrase file in `dir`. Throws PhraseLibraryError on any problem. */
export function readPhraseLibrary(dir: string = DEFAULT_DIR): PhraseLibrary {
  const problems: string[] = [];
  const missing: string[] = [];
  const seenIds = new Set<string>();
  const collect = (name: string): Phrase[] => {
    const { data, present, problem } = readFile(dir, name);
    if (!present) missing.push(name);
    if (problem !== undefined) problems.push(problem);
    const result = validatePhraseFile(name, data);
    problems.push(...result.problems);
    for (const phrase of result.phrases) {
      if (seenIds.has(phrase.id)) problems.push(`${name}.json ${phrase.id}: duplicate id`);
      seenIds.add(phrase.id);
    }
    return result.phrases.map((p) => Object.freeze(p));
  };
  const sections = Object.fromEntries(SECTIONS.map((s) => [s, Object.freeze(collect(s))])) as Record<
    Section,
    readonly Phrase[]
  >;
  const sectionOverviews = collect(SECTION_OVERVIEW_FILE).filter((p): p is SectionOverviewPhrase => 'section' in p);
  if (problems.length > 0) throw new PhraseLibraryError(problems);
  return Object.freeze({
    sections: Object.freeze(sections),
    sectionOverviews: Object.freeze(sectionOverviews),
    missing: Object.freeze(missing),
  });
}

let cached: PhraseLibrary | undefined;

/** The bundled library, read and validated on first use and shared afterwards. */
export function loadPhraseLibrary(): PhraseLibrary {
  cached ??= readPhraseLibrary();
  return cached;
}
