/**
 * Step 2 and 3 of composing: from a reading, the point phrases are chosen at and the claims it
 * allows, then the phrases that may be said of the person at all. Ranking (ranking.ts) only
 * orders what passes here, so nothing later can bring back a phrase ruled out here.
 */
import { allowedBy } from './claims.ts';
import type { Phrase } from './phrases.ts';
import { CENTRAL_STRENGTH, EMPHATIC_INTENSITY, type EvidenceLevel, type Reading } from './reading.ts';
import type { RoleFamily } from './roles.ts';
import { OTHER_TRAITS, levelFits, type TraitLevels } from './traits.ts';

/** What candidates and ranking read of a reading. */
export interface SelectionPoint {
  angle: number;
  /** The strength phrases are chosen at (selectionStrength). */
  strength: number;
  evidence: EvidenceLevel;
  central: boolean;
  traits: TraitLevels;
  role: RoleFamily | null;
  /** The reading's claims, with any stance the page has already taken (C2's one-line overview). */
  claims: ReadonlySet<string>;
  /** Everything but the strength that decides which phrases are candidates, as one string (a cache key). */
  key: string;
}

/** A phrase whose maxIntensity is at most this is a blend phrase (mild; written near the centre). */
export const BLEND_PHRASE_MAX = 40;

export function isBlendPhrase(phrase: Phrase): boolean {
  return phrase.maxIntensity !== undefined && phrase.maxIntensity <= BLEND_PHRASE_MAX;
}

/** A centre phrase says outright that the person is a blend: only for a central reading. */
export function isCentrePhrase(phrase: Phrase): boolean {
  return phrase.maxIntensity !== undefined && phrase.maxIntensity <= CENTRAL_STRENGTH;
}

/** A phrase written for a trait level or a role family, not only for a part of the circle. */
export function isOwnPhrase(phrase: Phrase): boolean {
  return phrase.traits !== undefined || phrase.roles !== undefined;
}

/**
 * The strength phrases are chosen at: the reading's own, never in the centre's range unless the
 * reading is central (thin evidence is no proof of a balanced style).
 */
export function selectionStrength(reading: Reading): number {
  return reading.central ? reading.strength : Math.max(reading.strength, CENTRAL_STRENGTH + 1);
}

/** Emphatic phrases ("strongly marked", "unmistakable": minIntensity 70 or more) need strong evidence. */
export function isEmphatic(phrase: Phrase): boolean {
  return phrase.minIntensity !== undefined && phrase.minIntensity >= EMPHATIC_INTENSITY;
}

export function selectionPoint(reading: Reading, pageStances: readonly string[] = []): SelectionPoint {
  const claims = [...new Set([...reading.claims, ...pageStances])].sort();
  const traits = Object.entries(reading.traits).map(([t, l]) => `${t}=${l}`).join(',');
  return {
    angle: reading.angle,
    strength: selectionStrength(reading),
    evidence: reading.evidence,
    central: reading.central,
    traits: reading.traits,
    role: reading.role,
    claims: new Set(claims),
    key: `${claims.join(',')}|${reading.evidence}|${reading.central}|${traits}|${reading.role ?? '-'}`,
  };
}

/** True when the phrase may be said of this person (README.md, "How a profile is chosen"). */
export function isCandidate(phrase: Phrase, at: SelectionPoint): boolean {
  return admitsStrength(phrase, at.strength) && admitsPerson(phrase, at);
}

function admitsStrength(phrase: Phrase, strength: number): boolean {
  if (phrase.minIntensity !== undefined && strength < phrase.minIntensity) return false;
  return !(phrase.maxIntensity !== undefined && strength > phrase.maxIntensity);
}

/** Everything but the strength window: the same for every point with the same claims, evidence, traits and role. */
function admitsPerson(phrase: Phrase, at: SelectionPoint): boolean {
  if (phrase.evidence !== undefined && !phrase.evidence.includes(at.evidence)) return false;
  if (isCentrePhrase(phrase) && !at.central) return false;
  if (isEmphatic(phrase) && at.evidence !== 'strong') return false;
  if (phrase.traits !== undefined) {
    for (const trait of OTHER_TRAITS) {
      const wanted = phrase.traits[trait];
      if (wanted !== undefined && !levelFits(wanted, at.traits[trait])) return false;
    }
  }
  if (phrase.roles !== undefined && (at.role === null || !phrase.roles.includes(at.role))) return false;
  return allowedBy(phrase.stance, at.claims);
}

/**
 * The candidates among a fixed list of phrases (a library section). Which phrases pass depends on
 * the claims, evidence, centrality, traits and role, and on the strength only through the
 * phrases' own limits, so the answer is kept per list for each combination: neighbouring angles
 * with the same claims share it, and ranking then only orders it.
 */
interface CandidateCache {
  /** Sorted strengths at which some phrase of the list is admitted or dropped. */
  limits: number[];
  lists: Map<string, Phrase[]>;
}

const candidateCaches = new WeakMap<readonly Phrase[], CandidateCache>();
const CANDIDATE_CACHE_SIZE = 20_000;

function candidateCacheOf(phrases: readonly Phrase[]): CandidateCache {
  let cache = candidateCaches.get(phrases);
  if (!cache) {
    const limits = new Set<number>();
    for (const p of phrases) {
      if (p.minIntensity !== undefined) limits.add(p.minIntensity);
      if (p.maxIntensity !== undefined) limits.add(p.maxIntensity + 1e-9);
    }
    cache = { limits: [...limits].sort((a, b) => a - b), lists: new Map() };
    candidateCaches.set(phrases, cache);
  }
  return cache;
}

export function candidatesAmong(phrases: readonly Phrase[], at: SelectionPoint): Phrase[] {
  const cache = candidateCacheOf(phrases);
  let window = 0;
  while (window < cache.limits.length && (cache.limits[window] ?? Infinity) <= at.strength) window++;
  const key = `${at.key}|${window}`;
  let found = cache.lists.get(key);
  if (found === undefined) {
    found = phrases.filter((phrase) => isCandidate(phrase, at));
    if (cache.lists.size >= CANDIDATE_CACHE_SIZE) cache.lists.clear();
    cache.lists.set(key, found);
  }
  return found;
}
