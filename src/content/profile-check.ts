/**
 * The claims check: generated profiles of people of every kind, read for what a customer would
 * catch. Used by the content tests (which hold it at zero findings) and `npm run advice-overlap`
 * (which prints it). A finding is one of:
 *
 * - `opposed`: two phrases on one page take different sides of one topic (their `stance`);
 * - `worded`: the page's wording asserts both sides of a topic (claim-wording.ts), or a side the
 *   reading does not claim, whatever the tags say;
 * - `unclaimed`: a phrase takes a directional side the reading does not claim;
 * - `near-duplicate`: two sentences of one list share most of their content words.
 */
import { DISC_TYPES } from '../personality/circle.ts';
import { claimsWorded } from './claim-wording.ts';
import { isDirectional, topicOf } from './claims.ts';
import { cachedSelection } from './compose-profile.ts';
import { summaryPhrase } from './connect/recommendations.ts';
import { OVERVIEW_SECTIONS, SECTIONS, type Phrase, type Section } from './phrases.ts';
import type { Content } from './load-content.ts';
import { readingFrom, type Reading } from './reading.ts';
import { ROLE_FAMILIES, type RoleFamily } from './roles.ts';
import { contentWords } from './similarity.ts';
import { stripMarkers } from './text.ts';
import type { TraitLevels } from './traits.ts';

export interface CheckFinding {
  profile: string;
  kind: 'opposed' | 'worded' | 'unclaimed' | 'near-duplicate';
  detail: string;
}

export interface CheckedProfile {
  label: string;
  reading: Reading;
}

/** Strengths the generated readings take: near the centre, moderate, pronounced. */
const STRENGTHS = [22, 55, 88] as const;
/** Evidence levels as confidence: thin, moderate, strong (a test). */
const CONFIDENCES = [10, 20, 90] as const;
/** What a test may have measured beside the circle (strong evidence only: only a test measures them). */
const MEASURED: readonly TraitLevels[] = [
  {},
  { conscientiousness: 'very high' },
  { conscientiousness: 'low' },
  { openness: 'high' },
  { openness: 'very low', conscientiousness: 'high' },
];
/** Off-centre offsets within a type's sector, taken in turn, so sector edges are read too. */
const OFFSETS = [0, 7, -7, 10] as const;

/**
 * Every type × strength × evidence level × role family (and none) × what a test measured: 16 ×
 * 3 × 11 × (2 + 5) = 3,696 readings, each at a point that moves around its type's sector.
 */
export function generatedReadings(): CheckedProfile[] {
  const profiles: CheckedProfile[] = [];
  const roles: (RoleFamily | null)[] = [null, ...ROLE_FAMILIES];
  let turn = 0;
  for (const { code, angle } of DISC_TYPES) {
    for (const strength of STRENGTHS) {
      for (const role of roles) {
        for (const confidence of CONFIDENCES) {
          for (const traits of confidence === 90 ? MEASURED : [{}]) {
            const offset = OFFSETS[turn++ % OFFSETS.length] ?? 0;
            const reading = readingFrom({ angle: angle + offset, strength, confidence, traits, role });
            const measured = Object.entries(traits).map(([t, l]) => `${t} ${l}`).join(', ');
            profiles.push({ label: `${code}+${offset}° strength ${strength} confidence ${confidence} ${role ?? 'no role'}${measured ? ` (${measured})` : ''}`, reading });
          }
        }
      }
    }
  }
  return profiles;
}

/**
 * Two sentences are near-duplicates when most of the shorter one's content words are in the
 * other: at least 60 % and four words, or three quarters of a short one (three words or more).
 */
const DUPLICATE_SHARE = 0.6;
const DUPLICATE_MIN_WORDS = 4;
const SHORT_SHARE = 0.75;
const SHORT_MIN_WORDS = 3;

/** Contractions and the hedges wording adds say nothing about what a sentence advises. */
const NOT_CONTENT = new Set(['don', 'probab', 'most', 'likely', 'writing', 'sugges', 'seems', 'll', 've', 're']);

/** Generated pages repeat sentences: their words and claims are worked out once each. */
const wordsCache = new Map<string, Set<string>>();
const wordedCache = new Map<string, string[]>();

function words(text: string): Set<string> {
  let found = wordsCache.get(text);
  if (!found) {
    found = new Set([...contentWords(text)].filter((w) => w.length > 2 && !NOT_CONTENT.has(w)));
    wordsCache.set(text, found);
  }
  return found;
}

function worded(text: string): string[] {
  let found = wordedCache.get(text);
  if (!found) {
    found = claimsWorded(text);
    wordedCache.set(text, found);
  }
  return found;
}

function nearDuplicate(a: string, b: string): boolean {
  const wa = words(a);
  const wb = words(b);
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  const share = shared / Math.max(1, Math.min(wa.size, wb.size));
  return (shared >= DUPLICATE_MIN_WORDS && share >= DUPLICATE_SHARE) || (shared >= SHORT_MIN_WORDS && share >= SHORT_SHARE);
}

/** A page as lists of phrases with the sentences they were worded as. */
type Page = { list: string; phrases: Phrase[]; sentences: string[] }[];

/**
 * A reading's page as composed: the A1/profile-page lists and the C2 block overviews, or with
 * `connect`, C2's page: its one-line overview (summary.json) above everything chosen beside it.
 */
export function composedPage(reading: Reading, content: Pick<Content, 'phrases' | 'summaries'>, connect = false): Page {
  const summary = connect && reading.evidence !== 'thin' ? summaryPhrase(reading, content.summaries) : null;
  const selection = cachedSelection(reading, content.phrases, undefined, [...(summary?.stance ?? [])].sort());
  const page: Page = SECTIONS.filter((s): s is Exclude<Section, 'qualities'> => s !== 'qualities').map((section) => ({
    list: section,
    phrases: selection.picked[section],
    sentences: selection.worded[section],
  }));
  const overviews = OVERVIEW_SECTIONS.map((key) => selection.overviews[key]).filter((t) => t !== '');
  page.push({ list: 'section_overviews', phrases: [], sentences: overviews });
  if (summary !== null) page.push({ list: 'c2_overview', phrases: [summary], sentences: [summary.text] });
  return page;
}

/** The topics on which the page's phrases take more than one side. */
function contestedTopics(phrases: readonly Phrase[]): Set<string> {
  const sides = new Map<string, string>();
  const contested = new Set<string>();
  for (const phrase of phrases) {
    for (const side of phrase.stance ?? []) {
      const topic = topicOf(side);
      const first = sides.get(topic);
      if (first === undefined) sides.set(topic, side);
      else if (first !== side) contested.add(topic);
    }
  }
  return contested;
}

/** Findings on one page. */
export function checkPage(label: string, reading: Reading, page: Page): CheckFinding[] {
  const findings: CheckFinding[] = [];
  const claims = new Set(reading.claims);
  const phrases = page.flatMap((l) => l.phrases);
  const contested = contestedTopics(phrases);
  for (const [i, a] of phrases.entries()) {
    for (const side of a.stance ?? []) {
      if (isDirectional(topicOf(side)) && !claims.has(side)) findings.push({ profile: label, kind: 'unclaimed', detail: `${a.id} ${side}` });
    }
    // Only a phrase with a side of a topic the page takes two sides of can clash with another.
    if (!(a.stance ?? []).some((side) => contested.has(topicOf(side)))) continue;
    for (const b of phrases.slice(i + 1)) {
      const clash = (a.stance ?? []).find((s) => (b.stance ?? []).some((t) => t !== s && topicOf(t) === topicOf(s)));
      if (clash !== undefined) findings.push({ profile: label, kind: 'opposed', detail: `${a.id} / ${b.id} on ${topicOf(clash)}` });
    }
  }
  const sidesWorded = new Map<string, Map<string, string>>();
  for (const { sentences } of page) {
    for (const sentence of sentences) {
      for (const side of worded(sentence)) {
        const topic = topicOf(side);
        sidesWorded.set(topic, (sidesWorded.get(topic) ?? new Map()).set(side, stripMarkers(sentence)));
        if (isDirectional(topic) && !claims.has(side)) findings.push({ profile: label, kind: 'worded', detail: `"${stripMarkers(sentence)}" says ${side}, which the reading does not claim` });
      }
    }
  }
  for (const [topic, sides] of sidesWorded) {
    if (sides.size > 1) findings.push({ profile: label, kind: 'worded', detail: `${topic}: ${[...sides].map(([side, text]) => `${side} "${text}"`).join(' and ')}` });
  }
  for (const { list, sentences } of page) {
    for (const [i, a] of sentences.entries()) {
      for (const b of sentences.slice(i + 1)) {
        if (nearDuplicate(a, b)) findings.push({ profile: label, kind: 'near-duplicate', detail: `${list}: "${stripMarkers(a)}" / "${stripMarkers(b)}"` });
      }
    }
  }
  return findings;
}

export interface CheckReport {
  /** Readings checked; each gives two pages, its profile (A1, the page) and its C2 page. */
  profiles: number;
  findings: CheckFinding[];
  /** Findings by kind. */
  counts: Record<CheckFinding['kind'], number>;
}

/** The check over every generated reading's composed page. */
export function checkGeneratedProfiles(content: Pick<Content, 'phrases' | 'summaries'>): CheckReport {
  const profiles = generatedReadings();
  const findings = profiles.flatMap(({ label, reading }) => [
    ...checkPage(label, reading, composedPage(reading, content)),
    ...checkPage(`${label}, C2`, reading, composedPage(reading, content, true)),
  ]);
  const counts = { opposed: 0, worded: 0, unclaimed: 0, 'near-duplicate': 0 };
  for (const f of findings) counts[f.kind]++;
  return { profiles: profiles.length, findings, counts };
}
