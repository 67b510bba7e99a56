/**
 * A person's profile content: for each section, the phrases nearest their point on the DISC
 * circle, personalised with their first name (DESIGN.md §3). Pure and deterministic: the
 * same point and name always give the same text, so stored and recomputed profiles agree.
 */
import type { DiscPoint, TraitScores } from '../personality/types.ts';
import {
  evidenceLevel,
  facetsKey,
  hedgedLevels,
  markedLevels,
  measuredStances,
  roleFamily,
  selectionIntensity,
  traitLevels,
  traitStances,
  type Facets,
} from './individual.ts';
import {
  loadPhraseLibrary,
  OVERVIEW_SECTIONS,
  SECTIONS,
  type OverviewSection,
  type Phrase,
  type PhraseLibrary,
  type Section,
} from './phrases.ts';
import {
  BLEND_INTENSITY,
  contradicts,
  intensityClass,
  intensityLimits,
  pickPhrases,
  positionOf,
  rankPhrases,
  SimilarityIndex,
  UsedPhrases,
  type CirclePosition,
} from './rank.ts';
import { apportionByPoint, BAND_LIMITS } from './apportion.ts';
import { mergeIndividualPhrases } from './select-individual.ts';
import { cleanFirstName, personalize, stripMarkers } from './text.ts';

export { toInlineHtml } from './text.ts';

export type SectionContent = { [K in Section]: string[] };

export interface ProfileContent extends SectionContent {
  /** C2 block overviews, with `**bold**` markers kept so the API can render them. */
  section_overviews: Record<OverviewSection, string>;
  /** One or two overview sentences, markers kept. */
  summary: string;
}

export interface ProfileContentInput {
  point: DiscPoint;
  firstName?: string | null;
  /** Phrases per section; by default 5 (qualities 6). */
  count?: number;
  /**
   * How sure the point is, 0–100 (PersonalityView.confidence). Thin evidence reads as a blend
   * and says so; emphatic phrases need strong evidence (individual.ts). Left out: strong.
   */
  confidence?: number;
  /** The trait scores; openness, conscientiousness and neuroticism choose phrases of their own. */
  traits?: Partial<TraitScores>;
  /**
   * True when `traits` were measured by the personality test (TraitEstimate source
   * `assessment`): sector phrases whose `claims` contradict the measured openness or
   * conscientiousness are then left out (individual.ts measuredStances).
   */
  traitsMeasured?: boolean;
  /** Job title; its role family (sales, engineering, ...) chooses phrases of its own. */
  title?: string | null;
  /**
   * Stances already taken about the person elsewhere on the page (not `Phrase.claims`, which are
   * sides of what a test measures): the C2
   * overview (summary.json) is chosen apart from the profile, so a mild summary ("rather than a
   * hard push") passes `degree:mild` and `drive:gentle` here and no phrase saying otherwise is chosen.
   */
  pageStances?: readonly string[];
}

const DEFAULT_COUNT = 5;
const DEFAULT_QUALITIES = 6;
const MAX_COUNT = 12;

/**
 * The library section behind each C2 block: its phrases fill the block, and stand in for the
 * block's overview when none is authored.
 */
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
  if (requested !== undefined && Number.isFinite(requested)) {
    return Math.min(MAX_COUNT, Math.max(1, Math.round(requested)));
  }
  return section === 'qualities' ? DEFAULT_QUALITIES : DEFAULT_COUNT;
}

const similarityIndexes = new WeakMap<PhraseLibrary, SimilarityIndex>();

function similarityIndexOf(library: PhraseLibrary): SimilarityIndex {
  let index = similarityIndexes.get(library);
  if (!index) {
    index = new SimilarityIndex(SECTIONS.flatMap((section) => library.sections[section]));
    similarityIndexes.set(library, index);
  }
  return index;
}

/**
 * Loads the library and computes what composing needs of it once (each phrase's similar and
 * opposed neighbours), so the first profiles after a start cost what later ones do. Called at
 * start-up.
 */
export function prepareProfileContent(library: PhraseLibrary = loadPhraseLibrary()): void {
  similarityIndexOf(library).warm();
}

/** Picks each section's phrases (templates, not yet personalised). */
export function selectProfilePhrases(
  at: CirclePosition,
  library: PhraseLibrary,
  count?: number,
): Record<Section, Phrase[]> {
  // One memory for the whole profile: the same idea never appears in two sections.
  const used = new UsedPhrases(similarityIndexOf(library));
  const isBlend = at.intensity < BLEND_INTENSITY;
  // Where a test's measure rules phrases out, a section is filled from the neighbours' advice
  // rather than left short; other profiles keep the general minimum (rank.ts pickPhrases).
  const measured = (at.facets?.measured?.length ?? 0) > 0;
  const entries = SECTIONS.map((section) => {
    const ranked = apportionByPoint(rankPhrases(library.sections[section], at), at.intensity);
    const places = countFor(section, count);
    const picked = pickPhrases(ranked, {
      count: places,
      used,
      leadWithBlend: isBlend && section === 'overview',
      // A blend's overview describes them through their mild leans, one per theme and each true of
      // their angle: it says the style is mild, so a type's firm claims (`degree:firm`) cannot fill it.
      extraBlendsAt: section === 'overview' ? at : undefined,
      ...(measured ? { fillTo: places } : {}),
    });
    return [section, picked] as const;
  });
  return Object.fromEntries(entries) as Record<Section, Phrase[]>;
}

const overviewGroups = new WeakMap<PhraseLibrary, Map<OverviewSection, Phrase[]>>();

function overviewsBySection(library: PhraseLibrary): Map<OverviewSection, Phrase[]> {
  let groups = overviewGroups.get(library);
  if (!groups) {
    groups = new Map(OVERVIEW_SECTIONS.map((key) => [key, library.sectionOverviews.filter((p) => p.section === key)]));
    overviewGroups.set(library, groups);
  }
  return groups;
}

/** The template of each C2 block overview at this position (not yet personalised). */
function overviewTemplates(
  at: CirclePosition,
  library: PhraseLibrary,
  picked: Record<Section, Phrase[]>,
): Record<OverviewSection, string> {
  const bySection = overviewsBySection(library);
  // An overview must not say the opposite of a phrase on the page ("a longer email suits them"
  // beside "two lines suit them best"): the best one that agrees with what was picked.
  const onPage = Object.values(picked).flat().filter((p) => p.stance !== undefined);
  const entries = OVERVIEW_SECTIONS.map((key) => {
    const candidates = bySection.get(key) ?? [];
    const agreeing = rankPhrases(candidates, at).find(({ phrase }) => !onPage.some((p) => contradicts(phrase, p)));
    const best = agreeing?.phrase ?? picked[OVERVIEW_SOURCE[key]][0];
    return [key, best === undefined ? '' : best.text] as const;
  });
  return Object.fromEntries(entries) as Record<OverviewSection, string>;
}

interface Selection {
  picked: Record<Section, Phrase[]>;
  overviews: Record<OverviewSection, string>;
}

/**
 * Choosing phrases ranks the whole library and compares candidates with what is already said:
 * far too slow to redo per request. The sector choice depends only on the position, the
 * evidence level and the count, so it is cached per library, with the angle quantised to half
 * a degree (a difference no reader could see; every type centre falls on the grid) and the
 * intensity reduced to its class (intensityClass over selectionLimits: the same choice,
 * exactly). Almost every profile is a moderate one (text predictions), so the default-count
 * cache holds at most 720 angles × 52 classes for them; the size leaves room for the other two
 * levels at about a kilobyte and a half per entry.
 *
 * The person's own phrases (traits, role) are merged in afterwards (select-individual.ts),
 * which costs a few microseconds; the merged result is cached too, by the sector key and the
 * facets, in a smaller map: a miss there is cheap, so it only saves repeated lookups.
 */
const SELECTION_CACHE_SIZE = 60_000;
const PERSONAL_CACHE_SIZE = 20_000;

interface SelectionCache {
  limits: number[];
  selections: Map<string, Selection>;
  personal: Map<string, Selection>;
}

const selectionCaches = new WeakMap<PhraseLibrary, SelectionCache>();

function selectionCacheOf(library: PhraseLibrary): SelectionCache {
  let cache = selectionCaches.get(library);
  if (!cache) {
    cache = { limits: selectionLimits(library), selections: new Map(), personal: new Map() };
    selectionCaches.set(library, cache);
  }
  return cache;
}

/** Intensities where some phrase's choice changes (rank.ts intensityClass), with apportion.ts's bands. */
export function selectionLimits(library: PhraseLibrary): number[] {
  const phrases = [...SECTIONS.flatMap((section) => library.sections[section]), ...library.sectionOverviews];
  return [...new Set([...intensityLimits(phrases), ...BAND_LIMITS])].sort((a, b) => a - b);
}

function remember(map: Map<string, Selection>, key: string, value: Selection, size: number): Selection {
  if (map.size >= size) map.clear();
  map.set(key, value);
  return value;
}

function cachedSelection(at: CirclePosition, facets: Facets, library: PhraseLibrary, count: number | undefined): Selection {
  const intensity = selectionIntensity(at.intensity, facets.level);
  const { limits, selections, personal } = selectionCacheOf(library);
  const angle = (Math.round(at.angle * 2) / 2) % 360;
  const stances = facets.stances ?? [];
  const measured = facets.measured ?? [];
  const sectorKey = `${angle}|${intensityClass(intensity, limits)}|${facets.level}|${count ?? ''}|${stances.join(',')}|${measured.join(',')}`;
  const personalKey = `${sectorKey}|${facetsKey(facets)}`;
  const hit = personal.get(personalKey);
  if (hit) return hit;
  // The sector's choice depends on the traits only through what they claim (individual.ts
  // traitStances) and, for a test's measure, what that measure rules out (measuredStances).
  const sectorFacets: Facets = { level: facets.level, traits: {}, role: null, stances, measured };
  const quantised: CirclePosition = { angle, intensity, facets: sectorFacets };
  let sector = selections.get(sectorKey);
  if (!sector) {
    const picked = selectProfilePhrases(quantised, library, count);
    sector = remember(selections, sectorKey, { picked, overviews: overviewTemplates(quantised, library, picked) }, SELECTION_CACHE_SIZE);
  }
  const picked = mergeIndividualPhrases(sector.picked, quantised, facets, library, similarityIndexOf(library));
  // The person's own phrases may make a claim the sector's overview would contradict.
  const overviews = picked === sector.picked ? sector.overviews : overviewTemplates(quantised, library, picked);
  return remember(personal, personalKey, { picked, overviews }, PERSONAL_CACHE_SIZE);
}

export function composeProfileContent(
  input: ProfileContentInput,
  library: PhraseLibrary = loadPhraseLibrary(),
): ProfileContent {
  const at = positionOf(input.point);
  const name = cleanFirstName(input.firstName);
  const level = evidenceLevel(input.confidence);
  const traits = hedgedLevels(traitLevels(input.traits), level);
  const facets: Facets = {
    level,
    traits,
    role: roleFamily(input.title),
    stances: [...new Set([...traitStances(markedLevels(traits)), ...(input.pageStances ?? [])])].sort(),
    measured: measuredStances(traits, input.traitsMeasured === true),
  };
  const { picked, overviews } = cachedSelection(at, facets, library, input.count);
  const plain = (phrases: readonly Phrase[]): string[] => phrases.map((p) => stripMarkers(personalize(p.text, name)));
  const sections = Object.fromEntries(SECTIONS.map((s) => [s, plain(picked[s])])) as SectionContent;
  const summary = picked.overview
    .slice(0, 2)
    .map((p) => personalize(p.text, name))
    .join(' ');
  const sectionOverviews = Object.fromEntries(
    OVERVIEW_SECTIONS.map((key) => [key, personalize(overviews[key], name)]),
  ) as Record<OverviewSection, string>;
  return { ...sections, section_overviews: sectionOverviews, summary };
}
