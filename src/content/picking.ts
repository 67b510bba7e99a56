/**
 * Step 5 of composing: from a section's ranked candidates (ranking.ts), the phrases it shows.
 *
 * - The person's own phrases (written for a known trait level or their role family) take up to
 *   three places, two for traits and one for the role (two where the reading is near the centre
 *   and the title says more than its angle), never the last two: those stay with the advice for
 *   their part of the circle. Sections take turns on which trait leads, so every known trait shows.
 * - The rest follow the ranking, skipping anything that repeats an idea already in the profile
 *   or takes another side of it (similarity.ts UsedPhrases), one sentence per `theme`, at most
 *   three blend phrases (more in a central overview, where each must hold the point in its own arc).
 * - An overview opens with what the evidence calls for: for thin evidence, the sentence saying
 *   the picture is tentative; for a central reading, the centre phrase naming the way it leans.
 * - A short section is topped up with the nearest phrases outside their arc.
 */
import { angularDistance } from '../personality/circle.ts';
import { isBlendPhrase, isCentrePhrase, isOwnPhrase } from './candidates.ts';
import { topicOf } from './claims.ts';
import type { Phrase, Section } from './phrases.ts';
import { seedOf, type RankedPhrase } from './ranking.ts';
import type { UsedPhrases } from './similarity.ts';
import { isLean, OTHER_TRAITS, type OtherTrait } from './traits.ts';

const MAX_BLENDS_PER_SECTION = 3;
const MIN_FILL = 3;
const MAX_TRAIT_PER_SECTION = 2;
const MAX_LEAN_PER_SECTION = 1;
const MAX_ROLE_PER_SECTION = 1;
const MAX_ROLE_NEAR_CENTRE = 2;
/** Below this strength a reading's angle says little and its role may take two places. */
const ROLE_LEADS_BELOW = 50;
const MIN_SECTOR_PLACES = 2;
const TIE = 1e-9;

export interface SectionPlan {
  section: Section;
  /** Its place in the profile: sections take turns on which trait leads. */
  order: number;
  count: number;
  used: UsedPhrases;
  /** What the overview opens with: the thin-evidence note, or a central reading's centre phrase. */
  opener: 'thin' | 'central' | null;
  /** The point, for the central overview's extra blend phrases (each must hold it in its own arc). */
  angle: number;
  strength: number;
  central: boolean;
  /** Fill the section to this many with the nearest phrases outside their arc (a test's measure ruled many out). */
  fillTo: number;
  /** Orders the person's own phrases of equal standing (ranking.ts seedOf): which role phrase shows turns with the reading. */
  seed: number;
}

function traitOf(phrase: Phrase): OtherTrait | null {
  for (const trait of OTHER_TRAITS) if (phrase.traits?.[trait] !== undefined) return trait;
  return null;
}

function isLeanPhrase(phrase: Phrase): boolean {
  return OTHER_TRAITS.some((t) => {
    const level = phrase.traits?.[t];
    return level !== undefined && isLean(level);
  });
}

/** The person's own candidates in the order they take places: marked traits (this section's turn first), then leans, then roles. */
function ownOrder(own: readonly RankedPhrase[], order: number, seed: number): RankedPhrase[] {
  // Each phrase's sort keys are worked out once, not at every comparison (the tie-break hashes a string).
  const keyed = own.map((ranked) => {
    const p = ranked.phrase;
    const trait = traitOf(p);
    return {
      ranked,
      lean: isLeanPhrase(p),
      turn: trait === null ? 0 : (OTHER_TRAITS.indexOf(trait) + order) % OTHER_TRAITS.length,
      specific: OTHER_TRAITS.some((t) => p.traits?.[t]?.startsWith('very') === true),
      tieBreak: seedOf(`${seed}|${p.id}`),
    };
  });
  keyed.sort((a, b) => {
    if (a.lean !== b.lean) return a.lean ? 1 : -1;
    if (a.turn !== b.turn) return a.turn - b.turn;
    if (a.specific !== b.specific) return a.specific ? -1 : 1;
    if (Math.abs(b.ranked.fit - a.ranked.fit) > TIE) return b.ranked.fit - a.ranked.fit;
    return a.tieBreak - b.tieBreak || (a.ranked.phrase.id < b.ranked.phrase.id ? -1 : 1);
  });
  return keyed.map((k) => k.ranked);
}

function pickOwn(own: readonly RankedPhrase[], plan: SectionPlan): Phrase[] {
  const room = Math.max(0, plan.count - MIN_SECTOR_PLACES);
  const maxRoles = plan.strength < ROLE_LEADS_BELOW ? MAX_ROLE_NEAR_CENTRE : MAX_ROLE_PER_SECTION;
  const picked: Phrase[] = [];
  const traits = new Set<OtherTrait>();
  let roles = 0;
  let leans = 0;
  for (const { phrase } of ownOrder(own, plan.order, plan.seed)) {
    if (picked.length >= room) break;
    const trait = traitOf(phrase);
    const lean = isLeanPhrase(phrase);
    if (trait !== null && (traits.has(trait) || traits.size >= MAX_TRAIT_PER_SECTION)) continue;
    if (lean && leans >= MAX_LEAN_PER_SECTION) continue;
    if (trait === null && roles >= maxRoles) continue;
    if (plan.used.has(phrase)) continue;
    if (phrase.theme !== undefined && picked.some((p) => p.theme === phrase.theme)) continue;
    picked.push(phrase);
    plan.used.add(phrase);
    if (trait !== null) traits.add(trait);
    else roles++;
    if (lean) leans++;
  }
  return picked;
}

/** A sentence written only for thin evidence: a note that the picture is tentative. */
export function isThinNote(phrase: Phrase): boolean {
  return phrase.evidence?.length === 1 && phrase.evidence[0] === 'thin';
}

function withinArc(phrase: Phrase, angle: number): boolean {
  return phrase.spread >= 180 || angularDistance(angle, phrase.angle) <= phrase.spread;
}

function pickSector(ranked: readonly RankedPhrase[], plan: SectionPlan, places: number, own: readonly Phrase[]): Phrase[] {
  const picked: Phrase[] = [];
  let blends = 0;
  const take = (phrase: Phrase): void => {
    picked.push(phrase);
    plan.used.add(phrase);
    if (isBlendPhrase(phrase)) blends++;
  };
  let centreSaid = false;
  if (plan.opener === 'thin') {
    // The library's first note for thin evidence: the one that says the picture is tentative.
    const notes = ranked.filter((r) => isThinNote(r.phrase) && !plan.used.has(r.phrase)).sort((a, b) => (a.phrase.id < b.phrase.id ? -1 : 1));
    if (notes[0] !== undefined) take(notes[0].phrase);
  } else if (plan.opener === 'central') {
    // The centre phrase naming the way the reading leans fits best where the library has one for
    // its angle; one fitting everybody otherwise. A blend is called one once.
    const open = ranked.filter((r) => isCentrePhrase(r.phrase) && !plan.used.has(r.phrase));
    let lead = open[0];
    for (const r of open) if (lead !== undefined && r.fit > lead.fit + TIE) lead = r;
    if (lead !== undefined) {
      take(lead.phrase);
      centreSaid = true;
    }
  }
  const overview = plan.section === 'overview';
  const pass = (limit: number, accept: (fit: number) => boolean): void => {
    for (const { phrase, fit } of ranked) {
      if (picked.length >= limit) break;
      if (!accept(fit)) continue;
      if (plan.opener === 'thin' && isThinNote(phrase)) continue;
      // A central overview says mild things only where they are true of its angle (spreads widen
      // near the centre, but "a little more outgoing than most" must still hold), and may say more
      // of them than other sections.
      if (overview && plan.central && isBlendPhrase(phrase) && !isCentrePhrase(phrase) && !withinArc(phrase, plan.angle)) continue;
      if (isBlendPhrase(phrase) && blends >= MAX_BLENDS_PER_SECTION) {
        if (!overview || !plan.central || isCentrePhrase(phrase)) continue;
      }
      if (centreSaid && isCentrePhrase(phrase)) continue;
      if (picked.includes(phrase) || plan.used.has(phrase)) continue;
      if (phrase.theme !== undefined && [...picked, ...own].some((p) => p.theme === phrase.theme)) continue;
      take(phrase);
    }
  };
  pass(places, (fit) => fit > 0);
  pass(Math.min(places, Math.max(MIN_FILL, plan.fillTo)), () => true);
  return picked;
}

/** A section's phrases, the sector's leading and the person's own between them, in one list. */
export function pickSection(ranked: readonly RankedPhrase[], plan: SectionPlan): Phrase[] {
  const own = pickOwn(ranked.filter((r) => isOwnPhrase(r.phrase)), plan);
  const sector = pickSector(
    ranked.filter((r) => !isOwnPhrase(r.phrase)),
    plan,
    plan.count - own.length,
    own,
  );
  const merged: Phrase[] = [];
  for (let i = 0; i < sector.length || i < own.length; i++) {
    const mine = sector[i];
    const theirs = own[i];
    if (mine !== undefined) merged.push(mine);
    if (theirs !== undefined) merged.push(theirs);
  }
  return merged;
}

/** The best ranked phrase that says nothing the page already contradicts, for a one-sentence overview. */
export function pickOne(ranked: readonly RankedPhrase[], page: readonly Phrase[], opener: 'thin' | 'central' | null): Phrase | null {
  // Each topic the page takes a side on, and the side: a candidate taking another side is out.
  const sides = new Map<string, string>();
  for (const p of page) for (const side of p.stance ?? []) sides.set(topicOf(side), side);
  const opposed = (phrase: Phrase): boolean =>
    phrase.stance?.some((side) => {
      const taken = sides.get(topicOf(side));
      return taken !== undefined && taken !== side;
    }) === true;
  const usable = ranked.filter((r) => !opposed(r.phrase));
  if (opener === 'central') return (usable.find((r) => isCentrePhrase(r.phrase)) ?? usable.find((r) => isBlendPhrase(r.phrase)) ?? usable[0])?.phrase ?? null;
  return usable[0]?.phrase ?? null;
}
