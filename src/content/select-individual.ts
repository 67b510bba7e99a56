/**
 * The part of a profile that is the person's own rather than their sector's: phrases written for
 * a trait level (high openness, low conscientiousness, ...) or a role family (sales,
 * engineering, ...), merged into the sector selection.
 *
 * Kept apart from the sector selection on purpose: that one ranks the whole library (about a
 * millisecond) and is cached by point; this one looks only at the few phrases with conditions,
 * so it is cheap enough to run for every combination of traits and role without multiplying
 * the sector cache by them.
 */
import type { Facets, OtherTrait } from './individual.ts';
import { isLean, OTHER_TRAITS } from './individual.ts';
import type { Phrase, PhraseLibrary, Section } from './phrases.ts';
import { SECTIONS } from './phrases.ts';
import { isIndividualPhrase, phraseFit, SimilarityIndex, UsedPhrases, type CirclePosition } from './rank.ts';

/** Trait phrases per section at most, and role phrases: the sector's own advice keeps its place. */
const MAX_TRAIT_PER_SECTION = 2;
const MAX_ROLE_PER_SECTION = 1;
/**
 * Near the centre the point says little about the person (rank.ts widens every spread there),
 * while the title is a fact: below this intensity a section may take two role phrases.
 */
const ROLE_LEADS_BELOW = 50;
const MAX_ROLE_NEAR_CENTRE = 2;
/** Of the trait places, those a lean may take: a lean says less than a marked trait. */
const MAX_LEAN_PER_SECTION = 1;
/** Places per section always left to the sector's phrases. */
const MIN_SECTOR_PLACES = 2;

const conditionedBySection = new WeakMap<PhraseLibrary, Record<Section, readonly Phrase[]>>();

function conditionedPhrases(library: PhraseLibrary): Record<Section, readonly Phrase[]> {
  let bySection = conditionedBySection.get(library);
  if (!bySection) {
    bySection = Object.fromEntries(SECTIONS.map((s) => [s, library.sections[s].filter(isIndividualPhrase)])) as Record<Section, Phrase[]>;
    conditionedBySection.set(library, bySection);
  }
  return bySection;
}

function traitOf(phrase: Phrase): OtherTrait | null {
  for (const trait of OTHER_TRAITS) if (phrase.traits?.[trait] !== undefined) return trait;
  return null;
}

interface Candidate {
  phrase: Phrase;
  fit: number;
  /** Which trait comes first among equally good phrases; turns with the section (see below). */
  turn: number;
  /** Written for a "very" level: the closer description of who the person is, so it goes first. */
  specific: boolean;
  /** Written for a lean: a marked trait's phrases come before any lean's. */
  lean: boolean;
}

/**
 * A person with several marked traits has more trait phrases than places; sections take turns
 * on which trait leads, so every marked trait shows somewhere in the profile.
 */
function candidatesFor(section: Section, phrases: readonly Phrase[], at: CirclePosition): Candidate[] {
  const offset = SECTIONS.indexOf(section);
  const found: Candidate[] = [];
  for (const phrase of phrases) {
    const fit = phraseFit(phrase, at);
    if (fit === null || fit <= 0) continue;
    const trait = traitOf(phrase);
    const turn = trait === null ? 0 : (OTHER_TRAITS.indexOf(trait) + offset) % OTHER_TRAITS.length;
    const specific = OTHER_TRAITS.some((t) => phrase.traits?.[t]?.startsWith('very') === true);
    const lean = OTHER_TRAITS.some((t) => { const level = phrase.traits?.[t]; return level !== undefined && isLean(level); });
    found.push({ phrase, fit, turn, specific, lean });
  }
  return found.sort((a, b) => {
    if (a.lean !== b.lean) return a.lean ? 1 : -1;
    if (a.turn !== b.turn) return a.turn - b.turn;
    if (a.specific !== b.specific) return a.specific ? -1 : 1;
    if (Math.abs(b.fit - a.fit) > 1e-9) return b.fit - a.fit;
    return a.phrase.id < b.phrase.id ? -1 : 1;
  });
}

/**
 * Merges the person's own phrases into a sector selection: each section keeps its sector's best
 * phrases first and gives up its last places to trait and role phrases, never to one that
 * repeats an idea already in the profile.
 */
export function mergeIndividualPhrases(
  sector: Readonly<Record<Section, readonly Phrase[]>>,
  at: CirclePosition,
  facets: Facets,
  library: PhraseLibrary,
  index: SimilarityIndex,
): Record<Section, Phrase[]> {
  const hasTraits = Object.keys(facets.traits).length > 0;
  if (!hasTraits && facets.role === null) {
    return Object.fromEntries(SECTIONS.map((s) => [s, [...sector[s]]])) as Record<Section, Phrase[]>;
  }
  const conditioned = conditionedPhrases(library);
  const position: CirclePosition = { ...at, facets };
  const used = new UsedPhrases(index);
  const maxRoles = at.intensity < ROLE_LEADS_BELOW ? MAX_ROLE_NEAR_CENTRE : MAX_ROLE_PER_SECTION;
  for (const section of SECTIONS) for (const phrase of sector[section]) used.add(phrase);

  const entries = SECTIONS.map((section) => {
    const base = sector[section];
    const room = Math.max(0, base.length - MIN_SECTOR_PLACES);
    const own: Phrase[] = [];
    const traitsTaken = new Set<OtherTrait>();
    let roles = 0;
    let leans = 0;
    for (const { phrase, lean } of candidatesFor(section, conditioned[section], position)) {
      if (own.length >= room) break;
      const trait = traitOf(phrase);
      if (trait !== null && (traitsTaken.has(trait) || traitsTaken.size >= MAX_TRAIT_PER_SECTION)) continue;
      if (lean && leans >= MAX_LEAN_PER_SECTION) continue;
      if (trait === null && roles >= maxRoles) continue;
      if (used.has(phrase)) continue;
      own.push(phrase);
      used.add(phrase);
      if (trait !== null) traitsTaken.add(trait);
      else roles++;
      if (lean) leans++;
    }
    // Sector phrases lead and alternate with the person's own, so a section reads as one list.
    const kept = base.slice(0, base.length - own.length);
    const merged: Phrase[] = [];
    for (let i = 0; i < kept.length || i < own.length; i++) {
      const sectorPhrase = kept[i];
      const ownPhrase = own[i];
      if (sectorPhrase !== undefined) merged.push(sectorPhrase);
      if (ownPhrase !== undefined) merged.push(ownPhrase);
    }
    return [section, merged] as const;
  });
  return Object.fromEntries(entries) as Record<Section, Phrase[]>;
}
