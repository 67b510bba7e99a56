/**
 * A person's profile content, composed in one forward pipeline (README.md, "How a profile is
 * chosen"), shared by A1, A2/A3, B1, the profile page and C2:
 *
 *   reading (reading.ts) → the claims it allows (claims.ts) → candidate phrases (candidates.ts)
 *   → ranking (ranking.ts) → picking (picking.ts) → wording (wording.ts) → the person's name (text.ts)
 *
 * Pure and deterministic: the same reading and name always give the same text.
 */
import { selectionPoint, type SelectionPoint } from './candidates.ts';
import { OVERVIEW_SECTIONS, SECTIONS, type OverviewSection, type Phrase, type PhraseLibrary, type Section } from './phrases.ts';
import { pickOne, pickSection } from './picking.ts';
import { apportion, rankCandidates, seedOf, strengthClass, strengthLimits, varyLeaders } from './ranking.ts';
import type { Reading } from './reading.ts';
import { SimilarityIndex, UsedPhrases } from './similarity.ts';
import { cleanFirstName, personalize, stripMarkers } from './text.ts';
import { OTHER_TRAITS } from './traits.ts';
import { wordSection, wordStatements } from './wording.ts';

export { toInlineHtml } from './text.ts';

export type SectionContent = { [K in Section]: string[] };

export interface ProfileContent extends SectionContent {
  /** C2 block overviews, with `**bold**` markers kept so the API can render them. */
  sectionOverviews: Record<OverviewSection, string>;
  /** One or two overview sentences, markers kept. */
  summary: string;
}

export interface ProfileContentInput {
  reading: Reading;
  firstName?: string | null;
  /** Phrases per section; by default 5 (qualities 6). */
  count?: number;
  /**
   * Stances the page has already taken elsewhere (C2's one-line overview, chosen from
   * summary.json): nothing below may take another side of them.
   */
  pageStances?: readonly string[];
}

const DEFAULT_COUNT = 5;
const DEFAULT_QUALITIES = 6;
const MAX_COUNT = 12;

/** The library section behind each C2 block: its phrases fill the block, and stand in for its overview when none fits. */
export const OVERVIEW_SOURCE: Readonly<Record<OverviewSection, Section>> = {
  emailing: 'emailing',
  communication: 'communication',
  motivations: 'motivation',
  behavior: 'behavior',
  building_trust: 'building_trust',
  selling: 'selling',
  working_together: 'working_together',
};

function countFor(section: Section, requested: number | undefined): number {
  if (requested !== undefined && Number.isFinite(requested)) return Math.min(MAX_COUNT, Math.max(1, Math.round(requested)));
  return section === 'qualities' ? DEFAULT_QUALITIES : DEFAULT_COUNT;
}

/** What composing needs of a library, computed once per library. */
interface Prepared {
  index: SimilarityIndex;
  limits: number[];
  overviews: Map<OverviewSection, Phrase[]>;
  cache: Map<string, Selection>;
}

const prepared = new WeakMap<PhraseLibrary, Prepared>();

function prepare(library: PhraseLibrary): Prepared {
  let found = prepared.get(library);
  if (!found) {
    const all = SECTIONS.flatMap((section) => library.sections[section]);
    found = {
      index: new SimilarityIndex(all),
      limits: strengthLimits([...all, ...library.sectionOverviews]),
      overviews: new Map(OVERVIEW_SECTIONS.map((key) => [key, library.sectionOverviews.filter((p) => p.section === key)])),
      cache: new Map(),
    };
    prepared.set(library, found);
  }
  return found;
}

/** Computes each phrase's similar and opposed neighbours now (at start-up), so the first profiles cost what later ones do. */
export function prepareProfileContent(library: PhraseLibrary): void {
  prepare(library).index.warm();
}

/** A profile's templates, worded for its evidence, not yet personalised. */
export interface Selection {
  picked: Record<Section, Phrase[]>;
  /** Each section's templates as worded (wording.ts). */
  worded: Record<Section, string[]>;
  overviews: Record<OverviewSection, string>;
}

/** Steps 3 to 6 for one reading: candidates, ranking, picking and wording, section by section. */
export function selectProfile(reading: Reading, library: PhraseLibrary, count?: number, pageStances: readonly string[] = []): Selection {
  const { index, overviews, limits } = prepare(library);
  const at: SelectionPoint = selectionPoint(reading, pageStances);
  // One memory for the whole profile: the same idea never appears in two sections, nor its opposite.
  const used = new UsedPhrases(index);
  // Where a test's measure rules out much of a sector, its sections are filled from the neighbours' advice.
  const measured = Object.keys(reading.traits).length > 0;
  const opener = reading.evidence === 'thin' ? 'thin' : reading.central ? 'central' : null;
  const picked = {} as Record<Section, Phrase[]>;
  SECTIONS.forEach((section, order) => {
    const places = countFor(section, count);
    const seed = seedOf(`${section}|${reading.angle}|${strengthClass(at.strength, limits)}|${reading.role ?? '-'}`);
    const ranked = varyLeaders(apportion(rankCandidates(library.sections[section], at), at.strength), seed);
    picked[section] = pickSection(ranked, {
      section,
      order,
      count: places,
      used,
      opener: section === 'overview' ? opener : null,
      angle: at.angle,
      strength: at.strength,
      central: at.central,
      fillTo: measured ? places : 0,
      seed,
    });
  });
  const worded = Object.fromEntries(SECTIONS.map((s) => [s, wordSection(s, picked[s], reading.evidence)])) as Record<Section, string[]>;
  const page = Object.values(picked).flat();
  const blockOverviews = Object.fromEntries(
    OVERVIEW_SECTIONS.map((key) => {
      const best = pickOne(rankCandidates(overviews.get(key) ?? [], at), page, reading.central ? 'central' : null);
      if (best !== null) return [key, wordStatements([best], reading.evidence)[0] ?? ''];
      return [key, worded[OVERVIEW_SOURCE[key]][0] ?? ''];
    }),
  ) as Record<OverviewSection, string>;
  return { picked, worded, overviews: blockOverviews };
}

/**
 * Ranking the whole library is far too slow to redo per request, and the selection depends only
 * on what the key holds: the angle (the reading's, on a half-degree grid), the strength's class
 * (ranking.ts strengthClass), the evidence, whether central, the known traits, the role, the count
 * and the page's stances. The claims follow from these.
 */
const CACHE_SIZE = 60_000;

function cacheKey(reading: Reading, limits: readonly number[], count: number | undefined, pageStances: readonly string[]): string {
  const strength = selectionPoint(reading).strength;
  const traits = OTHER_TRAITS.map((t) => reading.traits[t] ?? '-').join(',');
  return `${reading.angle}|${strengthClass(strength, limits)}|${reading.evidence}|${reading.central}|${traits}|${reading.role ?? '-'}|${count ?? ''}|${pageStances.join(',')}`;
}

export function cachedSelection(reading: Reading, library: PhraseLibrary, count?: number, pageStances: readonly string[] = []): Selection {
  const { cache, limits } = prepare(library);
  // A stance the reading already claims changes nothing (selectionPoint joins the two): C2's page,
  // whose one-line overview usually takes only sides the reading claims, shares the profile's selection.
  const added = pageStances.filter((stance) => !reading.claims.includes(stance));
  const key = cacheKey(reading, limits, count, added);
  let selection = cache.get(key);
  if (selection === undefined) {
    selection = selectProfile(reading, library, count, added);
    if (cache.size >= CACHE_SIZE) cache.clear();
    cache.set(key, selection);
  }
  return selection;
}

export function composeProfileContent(input: ProfileContentInput, library: PhraseLibrary): ProfileContent {
  const name = cleanFirstName(input.firstName);
  const { worded, overviews } = cachedSelection(input.reading, library, input.count, [...(input.pageStances ?? [])].sort());
  const plain = (templates: readonly string[]): string[] => templates.map((t) => stripMarkers(personalize(t, name)));
  const sections = Object.fromEntries(SECTIONS.map((s) => [s, plain(worded[s])])) as SectionContent;
  const summary = worded.overview
    .slice(0, 2)
    .map((t) => personalize(t, name))
    .join(' ');
  const sectionOverviews = Object.fromEntries(OVERVIEW_SECTIONS.map((key) => [key, personalize(overviews[key], name)])) as Record<OverviewSection, string>;
  return { ...sections, sectionOverviews, summary };
}
