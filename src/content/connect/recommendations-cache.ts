import { LRUCache } from 'lru-cache';
import { escapeHtml } from '../../shared/html.ts';
import { viewParty, type Party } from '../party.ts';
import { recommendationsFor, type ConnectRecommendations, type ConnectSection, type RecommendationsContent } from './recommendations.ts';

/**
 * Stands for the first name in a cached composition: a private-use character, which no template
 * holds, that cleanFirstName keeps and escapeHtml leaves alone.
 */
const NAME_MARK = '\uE000';

/** Compositions kept; one is ~5 KB of strings, so the cache holds at most ~5 MB. */
const DEFAULT_ENTRIES = 1_000;

/** Keys of readings seen once remembered for each kept composition (a key is ~300 bytes). */
const SEEN_ONCE_PER_ENTRY = 4;

/**
 * C2's recommendations (recommendations.ts) composed once per reading and reused for everyone
 * read the same way, with each caller's first name put in afterwards.
 *
 * Composing picks phrases from the reading alone (the selection is cached already,
 * compose-profile.ts); what it still spent per answer (~130 µs, ~11 % of a name search's CPU)
 * was wording, filling in the name and escaping ~50 strings. Composed with NAME_MARK as the
 * name, a composition equals the real one with the mark replaced by the escaped name: the name
 * only ever goes where `{first}` stood, escaping works character by character, and a cleaned
 * name holds no `*` that could pair with the bold markers. Without a name, "this person" is
 * capitalised by its place in the sentence, so that composition is kept as it is.
 *
 * The key is the whole reading (a superset of what composing reads of it). A reading is kept from
 * its second answer on: where every reading differs, keeping each one (and the collector moving
 * them to its old generation before they are dropped) cost ~50 % more than composing alone, so a
 * reading seen once only leaves its key. One per process (the context's `recommendations`),
 * bounded in entries, least recently used first out.
 */
export class RecommendationsCache {
  /**
   * The compositions kept, and the keys of readings answered once and not kept (yet). Null when
   * made with 0 entries: every answer is composed anew (tests compare the two).
   */
  private readonly kept: { compositions: LRUCache<string, ConnectRecommendations>; seenOnce: LRUCache<string, true> } | null;
  private hitCount = 0;
  private missCount = 0;

  constructor(
    /** The content, asked for when a composition is first made (a CLI context loads it on first use). */
    private readonly content: () => RecommendationsContent,
    entries = DEFAULT_ENTRIES,
  ) {
    this.kept = entries > 0 ? { compositions: new LRUCache({ max: entries }), seenOnce: new LRUCache({ max: entries * SEEN_ONCE_PER_ENTRY }) } : null;
  }

  /** Reuses and misses since start (tests and the bench read them). */
  get stats(): { hits: number; misses: number; size: number } {
    return { hits: this.hitCount, misses: this.missCount, size: this.kept?.compositions.size ?? 0 };
  }

  compose(person: Party): ConnectRecommendations {
    const { reading, name } = viewParty(person);
    if (this.kept === null) return recommendationsFor(reading, name, this.content());
    const { compositions, seenOnce } = this.kept;
    const key = `${name === null ? 'unnamed' : 'named'}\u0000${JSON.stringify(reading)}`;
    let composed = compositions.get(key);
    if (composed !== undefined) {
      this.hitCount += 1;
    } else {
      this.missCount += 1;
      if (!seenOnce.has(key)) {
        seenOnce.set(key, true);
        return recommendationsFor(reading, name, this.content());
      }
      seenOnce.delete(key);
      composed = recommendationsFor(reading, name === null ? null : NAME_MARK, this.content());
      compositions.set(key, composed);
    }
    // A copy, the name put in: the kept composition never leaves this cache, so no caller can change it for the next.
    return withName(composed, name === null ? null : escapeHtml(name));
  }
}

function withName(composed: ConnectRecommendations, htmlName: string | null): ConnectRecommendations {
  // split and join, not replaceAll: a replacement string reads `$&`, `$'` and `$$` in a name as patterns.
  const text = (value: string): string => (htmlName !== null && value.includes(NAME_MARK) ? value.split(NAME_MARK).join(htmlName) : value);
  const section = (value: ConnectSection): ConnectSection => ({ overview: text(value.overview), phrases: value.phrases.map(text) });
  return {
    overview: text(composed.overview),
    qualities: composed.qualities.map(text),
    emailing: section(composed.emailing),
    communication: section(composed.communication),
    motivations: section(composed.motivations),
    behavior: section(composed.behavior),
    buildingTrust: section(composed.buildingTrust),
    selling: section(composed.selling),
    workingTogether: section(composed.workingTogether),
  };
}
