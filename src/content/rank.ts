/**
 * Fit of a phrase to a point on the DISC circle, and picking a handful of phrases without
 * repeating an idea. Shared by every composer (profile now; relationships, messages and
 * emails use the same ranking).
 */
import { angularDistance, discIntensity, pointAngle } from '../personality/circle.ts';
import type { DiscPoint } from '../personality/types.ts';
import { levelFits, OTHER_TRAITS, type Facets } from './individual.ts';
import type { Phrase } from './phrases.ts';

/** Below this intensity a person is a blend (DESIGN.md §1): blend phrases lead. */
export const BLEND_INTENSITY = 30;
/** A phrase whose maxIntensity is at most this is a blend phrase. */
const BLEND_PHRASE_MAX = 40;
/** Fit of a phrase that fits everyone (spread 180): below a close match, above a loose one. */
const UNIVERSAL_FIT = 0.55;
/** Spreads widen as intensity falls: the angle of a point near the centre says little. */
const WIDEN_BELOW = 50;
const WIDEN_PER_POINT = 0.9;
/** Blend phrases per section, so a blend profile still says something specific. */
const MAX_BLENDS_PER_SECTION = 3;
/** Word-overlap ratio above which two phrases count as saying the same thing. */
const SIMILARITY_LIMIT = 0.4;
/** A section is topped up to this many with out-of-range phrases only if nothing closer is left. */
const MIN_FILL = 3;

export interface CirclePosition {
  /** Degrees in [0, 360). */
  angle: number;
  /** 0–100, the distance from the centre. */
  intensity: number;
  /**
   * Evidence, other traits and role (individual.ts). Left out, the evidence counts as strong
   * and phrases written for a trait level or a role family are not used.
   */
  facets?: Facets;
}

/**
 * Above WIDEN_BELOW a phrase's fit no longer depends on intensity (spreads stop widening and
 * blend phrases, capped at BLEND_PHRASE_MAX, are filtered out), only whether its intensity
 * limits admit the point. So intensities there between the same limits rank every phrase
 * alike: the sorted limits that fall in that range divide it into classes.
 */
export function intensityLimits(phrases: readonly Phrase[]): number[] {
  const limits = new Set<number>();
  // Intensities are whole numbers: a phrase admits i when ceil(min) <= i <= floor(max).
  for (const phrase of phrases) {
    if (phrase.minIntensity !== undefined) limits.add(Math.ceil(phrase.minIntensity));
    if (phrase.maxIntensity !== undefined) limits.add(Math.floor(phrase.maxIntensity) + 1);
  }
  return [...limits].filter((limit) => limit > WIDEN_BELOW).sort((a, b) => a - b);
}

/**
 * A key that is equal for two intensities only if every phrase ranks the same at both (given
 * the same angle): the intensity itself below WIDEN_BELOW, its class among `limits` above.
 */
export function intensityClass(intensity: number, limits: readonly number[]): string {
  if (intensity < WIDEN_BELOW || BLEND_PHRASE_MAX >= WIDEN_BELOW) return String(intensity);
  return `>${limits.filter((limit) => limit <= intensity).length}`;
}

export function positionOf(point: DiscPoint): CirclePosition {
  return { angle: pointAngle(point), intensity: discIntensity(point) };
}

export function isBlendPhrase(phrase: Phrase): boolean {
  return phrase.maxIntensity !== undefined && phrase.maxIntensity <= BLEND_PHRASE_MAX;
}

/**
 * A blend phrase written only for people below BLEND_INTENSITY (maxIntensity 30 or less): it
 * says outright that the person is a blend, where the mild ones (written up to 35) only lean.
 */
export function isCentrePhrase(phrase: Phrase): boolean {
  return phrase.maxIntensity !== undefined && phrase.maxIntensity <= BLEND_INTENSITY;
}

/** A phrase written for a trait level or a role family, not only for a part of the circle. */
export function isIndividualPhrase(phrase: Phrase): boolean {
  return phrase.traits !== undefined || phrase.roles !== undefined;
}

/** True when the person has every trait level and one of the roles the phrase is written for. */
function conditionsMet(phrase: Phrase, facets: Facets | undefined): boolean {
  if (phrase.evidence !== undefined && !phrase.evidence.includes(facets?.level ?? 'strong')) return false;
  if (phrase.stance !== undefined && facets?.stances !== undefined && facets.stances.length > 0) {
    if (stancesClash(phrase.stance, facets.stances)) return false;
  }
  if (phrase.claims !== undefined && facets?.measured !== undefined && facets.measured.length > 0) {
    if (stancesClash(phrase.claims, facets.measured)) return false;
  }
  if (phrase.traits !== undefined) {
    for (const trait of OTHER_TRAITS) {
      const wanted = phrase.traits[trait];
      if (wanted !== undefined && !levelFits(wanted, facets?.traits[trait])) return false;
    }
  }
  if (phrase.roles !== undefined && (facets?.role == null || !phrase.roles.includes(facets.role))) return false;
  return true;
}

function allowedAt(phrase: Phrase, at: CirclePosition): boolean {
  if (phrase.minIntensity !== undefined && at.intensity < phrase.minIntensity) return false;
  if (phrase.maxIntensity !== undefined && at.intensity > phrase.maxIntensity) return false;
  return conditionsMet(phrase, at.facets);
}

/**
 * How well a phrase fits a position: about 1 at its centre, falling to 0 at the edge of its
 * (widened) spread, negative outside it so that out-of-range phrases can still fill a
 * section when nothing closer exists. Null when the intensity filters exclude it.
 */
export function phraseFit(phrase: Phrase, at: CirclePosition): number | null {
  if (!allowedAt(phrase, at)) return null;
  const blendBonus = isBlendPhrase(phrase)
    ? 0.3 + 0.6 * Math.max(0, 1 - at.intensity / Math.max(1, phrase.maxIntensity ?? BLEND_PHRASE_MAX))
    : 0;
  if (phrase.spread >= 180) return UNIVERSAL_FIT + blendBonus;
  const spread = Math.min(180, phrase.spread + Math.max(0, WIDEN_BELOW - at.intensity) * WIDEN_PER_POINT);
  const distance = angularDistance(at.angle, phrase.angle);
  return 1 - distance / spread + blendBonus;
}

export interface RankedPhrase {
  phrase: Phrase;
  fit: number;
}

/** Fits closer than this are a tie (two neighbouring sectors at the same distance). */
const TIE = 1e-9;

/**
 * Phrases allowed at this position, best fit first. Ties are broken by a phrase's place
 * among those sharing its angle, then by id: two equally close sectors then take turns
 * instead of the one listed first in the file filling every remaining place.
 */
export function rankPhrases(phrases: readonly Phrase[], at: CirclePosition): RankedPhrase[] {
  const perAngle = new Map<number, number>();
  const ranked: (RankedPhrase & { turn: number })[] = [];
  for (const phrase of phrases) {
    const turn = perAngle.get(phrase.angle) ?? 0;
    perAngle.set(phrase.angle, turn + 1);
    const fit = phraseFit(phrase, at);
    if (fit !== null) ranked.push({ phrase, fit, turn });
  }
  ranked.sort((a, b) => {
    if (Math.abs(b.fit - a.fit) > TIE) return b.fit - a.fit;
    if (a.turn !== b.turn) return a.turn - b.turn;
    return a.phrase.id < b.phrase.id ? -1 : a.phrase.id > b.phrase.id ? 1 : 0;
  });
  return ranked;
}

const STOPWORDS = new Set(
  'a an and are as at be but by can for from has have in is it its not of on or so than that the their them they this to was what when where which who will with without you your first'.split(
    ' ',
  ),
);

/** A crude stem: enough to match "decide"/"decides"/"deciding", not "consistent"/"considerate". */
function stem(word: string): string {
  const base = word.length > 5 ? word.replace(/(ing|ed|ly|es|s|e)$/, '') : word;
  return base.slice(0, 7);
}

/** Phrase texts are a fixed set, so their word sets are worth keeping. */
const contentWordCache = new Map<string, Set<string>>();

function contentWords(text: string): Set<string> {
  const cached = contentWordCache.get(text);
  if (cached) return cached;
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  const set = new Set(words.filter((w) => !STOPWORDS.has(w)).map(stem));
  if (contentWordCache.size > 50_000) contentWordCache.clear();
  contentWordCache.set(text, set);
  return set;
}

/** Jaccard overlap of content words (crudely stemmed), in [0, 1]. */
export function similarity(a: string, b: string): number {
  const wa = contentWords(a);
  const wb = contentWords(b);
  if (wa.size === 0 && wb.size === 0) return a.trim().toLowerCase() === b.trim().toLowerCase() ? 1 : 0;
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  return shared / (wa.size + wb.size - shared);
}

/** True when two lists of `topic:side` claims take different sides on one topic. */
export function stancesClash(a: readonly string[], b: readonly string[]): boolean {
  for (const mine of a) {
    const topic = mine.slice(0, mine.indexOf(':') + 1);
    for (const theirs of b) if (theirs !== mine && theirs.startsWith(topic)) return true;
  }
  return false;
}

/** True when two phrases take different sides on one topic (phrases.ts `stance`). */
export function contradicts(a: Phrase, b: Phrase): boolean {
  return a.stance !== undefined && b.stance !== undefined && stancesClash(a.stance, b.stance);
}

/**
 * Which phrases say the same thing as a given one, among a fixed set. Comparing a candidate
 * with everything a profile has already said is the costly part of composing; the answer
 * depends only on the two phrases, so each phrase's neighbours are computed once, through an
 * index of content words (only phrases sharing a word can be similar). `warm` computes them
 * all, at start-up: lazily, the first profiles after a start paid ~20 ms each on the event loop.
 */
export class SimilarityIndex {
  private readonly neighbours = new Map<string, ReadonlySet<string>>();
  private readonly opponents = new Map<string, ReadonlySet<string>>();
  private readonly byWord = new Map<string, Phrase[]>();
  private readonly byText = new Map<string, Phrase[]>();

  constructor(private readonly phrases: readonly Phrase[]) {
    const add = (map: Map<string, Phrase[]>, key: string, phrase: Phrase) => {
      const list = map.get(key);
      if (list) list.push(phrase);
      else map.set(key, [phrase]);
    };
    for (const phrase of phrases) {
      for (const word of contentWords(phrase.text)) add(this.byWord, word, phrase);
      add(this.byText, phrase.text, phrase);
    }
  }

  /** Computes every phrase's neighbours and opponents now (about 0.1 s for the library). */
  warm(): void {
    for (const phrase of this.phrases) {
      this.similarTo(phrase);
      this.opposedTo(phrase);
    }
  }

  /** Ids of the phrases that say the opposite of this one (`stance`). */
  opposedTo(phrase: Phrase): ReadonlySet<string> {
    let ids = this.opponents.get(phrase.id);
    if (!ids) {
      ids = new Set(phrase.stance === undefined ? [] : this.phrases.filter((other) => contradicts(phrase, other)).map((other) => other.id));
      this.opponents.set(phrase.id, ids);
    }
    return ids;
  }

  /** Ids of the other phrases too close to this one (identical text included): `similarity` ≥ the limit. */
  similarTo(phrase: Phrase): ReadonlySet<string> {
    let ids = this.neighbours.get(phrase.id);
    if (!ids) {
      const found = new Set<string>();
      for (const other of this.byText.get(phrase.text) ?? []) if (other.id !== phrase.id) found.add(other.id);
      const mine = contentWords(phrase.text);
      const shared = new Map<Phrase, number>();
      for (const word of mine) for (const other of this.byWord.get(word) ?? []) shared.set(other, (shared.get(other) ?? 0) + 1);
      for (const [other, count] of shared) {
        if (other.id === phrase.id) continue;
        if (count / (mine.size + contentWords(other.text).size - count) >= SIMILARITY_LIMIT) found.add(other.id);
      }
      ids = found;
      this.neighbours.set(phrase.id, ids);
    }
    return ids;
  }
}

/**
 * What a profile has said so far, so later sections neither repeat it nor contradict it: of two
 * phrases that take opposite sides (`stance`), the one chosen first stays. Sections are filled
 * best fit first and the sector's advice before the person's own trait and role phrases, so the
 * phrase dropped is the later, weaker choice.
 */
export class UsedPhrases {
  private readonly ids = new Set<string>();

  constructor(private readonly index: SimilarityIndex) {}

  has(phrase: Phrase): boolean {
    if (this.ids.has(phrase.id)) return true;
    for (const id of this.index.similarTo(phrase)) if (this.ids.has(id)) return true;
    for (const id of this.index.opposedTo(phrase)) if (this.ids.has(id)) return true;
    return false;
  }

  add(phrase: Phrase): void {
    this.ids.add(phrase.id);
  }
}

export interface PickOptions {
  count: number;
  used: UsedPhrases;
  /** Put the best blend phrase first even if others fit better (overview of a blend). */
  leadWithBlend?: boolean;
  /**
   * Blend phrases allowed beyond MAX_BLENDS_PER_SECTION, when the point lies inside their own arc
   * (spreads widen near the centre, but "a little more outgoing than most" must still be true).
   */
  extraBlendsAt?: CirclePosition;
  /**
   * Top a short section up to this many with the nearest phrases outside their spread (default
   * MIN_FILL). A test's measure can rule out most of a sector's phrases in a section (the C
   * sector's care for detail, for someone the test measured as loose): the neighbours' advice
   * then fills the places rather than leaving them empty.
   */
  fillTo?: number;
}

/** True when the point lies within the phrase's own (unwidened) arc. */
function withinArc(phrase: Phrase, at: CirclePosition): boolean {
  return phrase.spread >= 180 || angularDistance(at.angle, phrase.angle) <= phrase.spread;
}

/** Picks up to `count` phrases from a ranking, skipping repeats and capping blend phrases. */
export function pickPhrases(ranked: readonly RankedPhrase[], options: PickOptions): Phrase[] {
  const picked: Phrase[] = [];
  let blends = 0;
  const take = (phrase: Phrase): void => {
    picked.push(phrase);
    options.used.add(phrase);
    if (isBlendPhrase(phrase)) blends++;
  };
  let centreSaid = false;
  if (options.leadWithBlend === true) {
    // A centre phrase says "this is a blend" outright, so one leads: the best fitting, which is
    // one naming the way the person leans where the library has one for their angle (a single
    // phrase that fits everybody opened half the demo people's profiles alike), else one that
    // fits everybody. A mild lean ("leans mildly toward ...") is the next best opening. A blend
    // is called one once: no second centre phrase follows the lead.
    const open = ranked.filter((r) => isBlendPhrase(r.phrase) && !options.used.has(r.phrase));
    let lead = open.find((r) => isCentrePhrase(r.phrase));
    for (const r of open) if (lead !== undefined && isCentrePhrase(r.phrase) && r.fit > lead.fit + TIE) lead = r;
    lead ??= open[0];
    if (lead !== undefined) {
      take(lead.phrase);
      centreSaid = isCentrePhrase(lead.phrase);
    }
  }
  const pass = (limit: number, accept: (fit: number) => boolean): void => {
    for (const { phrase, fit } of ranked) {
      if (picked.length >= limit) break;
      if (!accept(fit)) continue;
      if (isBlendPhrase(phrase) && blends >= MAX_BLENDS_PER_SECTION) {
        if (options.extraBlendsAt === undefined || isCentrePhrase(phrase) || !withinArc(phrase, options.extraBlendsAt)) continue;
      }
      if (centreSaid && isCentrePhrase(phrase)) continue;
      if (picked.includes(phrase) || options.used.has(phrase)) continue;
      // One sentence per theme: "a mild preference for getting things right" and "somewhat more
      // careful than spontaneous" share no words but say the same thing.
      if (phrase.theme !== undefined && picked.some((p) => p.theme === phrase.theme)) continue;
      take(phrase);
    }
  };
  pass(options.count, (fit) => fit > 0);
  // A thin section (a sparse library, or repeats skipped) still gets a few phrases, the
  // nearest of those outside their spread; the ranking keeps them in order of closeness.
  pass(Math.min(options.count, Math.max(MIN_FILL, options.fillTo ?? MIN_FILL)), () => true);
  return picked;
}
