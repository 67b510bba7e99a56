/**
 * The personality test's questions (docs/architecture.md, "The DISC circle"): the IPIP
 * Interpersonal Circumplex and a short openness and conscientiousness set from the IPIP-NEO-120
 * (public-domain items), committed in questionnaire.json beside this file so the service reads
 * nothing outside the repository at run time.
 * Pure: reading the committed file is the only I/O. Scoring is in scoring.ts.
 */
import { readFileSync } from 'node:fs';

export const QUESTIONNAIRE_FORMAT = 'rapport-questionnaire';

/** The eight interpersonal octants, named as in the instrument (PA Assured-Dominant, …). */
export const OCTANT_CODES = ['PA', 'BC', 'DE', 'FG', 'HI', 'JK', 'LM', 'NO'] as const;
export type OctantCode = (typeof OCTANT_CODES)[number];

/** Traits measured by their own items rather than by the circle. */
export const TRAIT_SCALES = ['openness', 'conscientiousness'] as const;
export type TraitScale = (typeof TRAIT_SCALES)[number];

export type ItemScale = OctantCode | TraitScale;

export interface QuestionnaireItem {
  /** Unique and stable across versions of the wording: answers are stored by it. */
  id: string;
  text: string;
  /** What the item measures. Not for the page: it would tell the taker how they are scored. */
  scale: ItemScale;
  /** 'minus': agreeing counts against the scale (the answer v is scored as 6 − v). */
  keyed: 'plus' | 'minus';
}

export interface ResponseOption {
  value: 1 | 2 | 3 | 4 | 5;
  label: string;
}

export interface Octant {
  code: OctantCode;
  label: string;
  /** Degrees counter-clockwise from warmth (LM, 0°), dominance (PA) at 90°: the DISC plane's angles. */
  angle: number;
}

export interface Questionnaire {
  /** Stored as the estimate's modelVersion; change it whenever items or scoring change. */
  version: string;
  instructions: string;
  items: QuestionnaireItem[];
  /** Item ids per page of the test, in order; every item appears exactly once. */
  screens: string[][];
  options: ResponseOption[];
  octants: Octant[];
}

const QUESTIONNAIRE_FILE = new URL('./questionnaire.json', import.meta.url);

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new Error(`questionnaire: ${where} must be a non-empty string`);
  return value;
}

function list(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw new Error(`questionnaire: ${where} must be an array`);
  return value;
}

export function isOctant(value: unknown): value is OctantCode {
  return (OCTANT_CODES as readonly unknown[]).includes(value);
}

function isScale(value: unknown): value is ItemScale {
  return isOctant(value) || (TRAIT_SCALES as readonly unknown[]).includes(value);
}

function parseItem(raw: unknown, index: number): QuestionnaireItem {
  const where = `items[${index}]`;
  if (!isObject(raw)) throw new Error(`questionnaire: ${where} must be an object`);
  const scale = raw.scale;
  if (!isScale(scale)) throw new Error(`questionnaire: ${where}.scale is not a known scale`);
  const keyed = raw.keyed;
  if (keyed !== 'plus' && keyed !== 'minus') throw new Error(`questionnaire: ${where}.keyed must be plus or minus`);
  return { id: text(raw.id, `${where}.id`), text: text(raw.text, `${where}.text`), scale, keyed };
}

function parseOption(raw: unknown, index: number): ResponseOption {
  if (!isObject(raw)) throw new Error(`questionnaire: options[${index}] must be an object`);
  const value = raw.value;
  if (value !== index + 1) throw new Error('questionnaire: options must be the values 1 to 5 in order');
  return { value: value as ResponseOption['value'], label: text(raw.label, `options[${index}].label`) };
}

function parseOctant(raw: unknown, index: number): Octant {
  if (!isObject(raw) || !isOctant(raw.code)) throw new Error(`questionnaire: octants[${index}] has no known code`);
  const angle = raw.angle_degrees;
  if (typeof angle !== 'number' || !Number.isFinite(angle)) throw new Error(`questionnaire: octants[${index}].angle_degrees must be a number`);
  return { code: raw.code, label: text(raw.label, `octants[${index}].label`), angle };
}

/**
 * Checks everything scoring relies on, so a bad edit of the JSON fails at start-up and not
 * on somebody's finished test: unique ids, five options, each octant once with four items,
 * every item on exactly one screen.
 */
export function parseQuestionnaire(raw: unknown): Questionnaire {
  if (!isObject(raw) || raw.format !== QUESTIONNAIRE_FORMAT) throw new Error(`questionnaire: format must be ${QUESTIONNAIRE_FORMAT}`);
  const items = list(raw.items, 'items').map(parseItem);
  const options = list(raw.options, 'options').map(parseOption);
  if (options.length !== 5) throw new Error('questionnaire: there must be five options');
  const octants = list(raw.octants, 'octants').map(parseOctant);
  const ids = new Set(items.map((item) => item.id));
  if (ids.size !== items.length) throw new Error('questionnaire: item ids must be unique');
  for (const code of OCTANT_CODES) {
    if (octants.filter((o) => o.code === code).length !== 1) throw new Error(`questionnaire: octant ${code} must be listed once`);
    if (items.filter((item) => item.scale === code).length !== 4) throw new Error(`questionnaire: octant ${code} needs four items`);
  }
  for (const trait of TRAIT_SCALES) {
    if (items.filter((item) => item.scale === trait).length < 4) throw new Error(`questionnaire: ${trait} needs at least four items`);
  }
  const screens = list(raw.screens, 'screens').map((screen, s) => list(screen, `screens[${s}]`).map((id, k) => text(id, `screens[${s}][${k}]`)));
  const placed = screens.flat();
  if (placed.length !== items.length || new Set(placed).size !== items.length || !placed.every((id) => ids.has(id))) {
    throw new Error('questionnaire: every item must appear on exactly one screen');
  }
  return { version: text(raw.version, 'version'), instructions: text(raw.instructions, 'instructions'), items, screens, options, octants };
}

/** The committed questionnaire, read and checked on every call (under a millisecond; callers may keep it). */
export function loadQuestionnaire(): Questionnaire {
  return parseQuestionnaire(JSON.parse(readFileSync(QUESTIONNAIRE_FILE, 'utf8')));
}
