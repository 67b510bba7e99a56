/**
 * A person's profile content: for each section, the phrases nearest their point on the DISC
 * circle, personalised with their first name (DESIGN.md §3). Pure and deterministic: the
 * same point and name always give the same text, so stored and recomputed profiles agree.
 */
import type { DiscPoint } from '../personality/types.ts';
import {
  loadPhraseLibrary,
  OVERVIEW_SECTIONS,
  SECTIONS,
  type OverviewSection,
  type Phrase,
  type PhraseLibrary,
  type Section,
} from './phrases.ts';
import { BLEND_INTENSITY, pickPhrases, positionOf, rankPhrases, UsedPhrases, type CirclePosition } from './rank.ts';
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
}

const DEFAULT_COUNT = 5;
const DEFAULT_QUALITIES = 6;
const MAX_COUNT = 12;

/** The section whose phrases stand in for a C2 block overview when none is authored. */
const OVERVIEW_SOURCE: Record<OverviewSection, Section> = {
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

/** Picks each section's phrases (templates, not yet personalised). */
export function selectProfilePhrases(
  at: CirclePosition,
  library: PhraseLibrary,
  count?: number,
): Record<Section, Phrase[]> {
  // One memory for the whole profile: the same idea never appears in two sections.
  const used = new UsedPhrases();
  const isBlend = at.intensity < BLEND_INTENSITY;
  const entries = SECTIONS.map((section) => {
    const ranked = rankPhrases(library.sections[section], at);
    const picked = pickPhrases(ranked, {
      count: countFor(section, count),
      used,
      leadWithBlend: isBlend && section === 'overview',
    });
    return [section, picked] as const;
  });
  return Object.fromEntries(entries) as Record<Section, Phrase[]>;
}

function sectionOverviews(
  at: CirclePosition,
  library: PhraseLibrary,
  picked: Record<Section, Phrase[]>,
  name: string | null,
): Record<OverviewSection, string> {
  const entries = OVERVIEW_SECTIONS.map((key) => {
    const candidates = library.sectionOverviews.filter((p) => p.section === key);
    const best = rankPhrases(candidates, at)[0]?.phrase ?? picked[OVERVIEW_SOURCE[key]][0];
    return [key, best === undefined ? '' : personalize(best.text, name)] as const;
  });
  return Object.fromEntries(entries) as Record<OverviewSection, string>;
}

export function composeProfileContent(
  input: ProfileContentInput,
  library: PhraseLibrary = loadPhraseLibrary(),
): ProfileContent {
  const at = positionOf(input.point);
  const name = cleanFirstName(input.firstName);
  const picked = selectProfilePhrases(at, library, input.count);
  const plain = (phrases: readonly Phrase[]): string[] => phrases.map((p) => stripMarkers(personalize(p.text, name)));
  const sections = Object.fromEntries(SECTIONS.map((s) => [s, plain(picked[s])])) as SectionContent;
  const summary = picked.overview
    .slice(0, 2)
    .map((p) => personalize(p.text, name))
    .join(' ');
  return { ...sections, section_overviews: sectionOverviews(at, library, picked, name), summary };
}
