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
  return {
    angle: reading.angle,
    strength: selectionStrength(reading),
    evidence: reading.evidence,
    central: reading.central,
    traits: reading.traits,
    role: reading.role,
    claims: new Set([...reading.claims, ...pageStances]),
  };
}

/** True when the phrase may be said of this person (README.md, "How a profile is chosen"). */
export function isCandidate(phrase: Phrase, at: SelectionPoint): boolean {
  if (phrase.evidence !== undefined && !phrase.evidence.includes(at.evidence)) return false;
  if (isCentrePhrase(phrase) && !at.central) return false;
  if (isEmphatic(phrase) && at.evidence !== 'strong') return false;
  if (phrase.minIntensity !== undefined && at.strength < phrase.minIntensity) return false;
  if (phrase.maxIntensity !== undefined && at.strength > phrase.maxIntensity) return false;
  if (phrase.traits !== undefined) {
    for (const trait of OTHER_TRAITS) {
      const wanted = phrase.traits[trait];
      if (wanted !== undefined && !levelFits(wanted, at.traits[trait])) return false;
    }
  }
  if (phrase.roles !== undefined && (at.role === null || !phrase.roles.includes(at.role))) return false;
  return allowedBy(phrase.stance, at.claims);
}
