import { LRUCache } from 'lru-cache';
import type { TextType } from '../personality/text/index.ts';
import type { TextPool } from '../personality/text/pool.ts';
import { analyzeSubmittedText, type SubmittedTextResult } from './analyses.ts';

/** Characters of text kept as keys, all entries together (~4 MB of strings at most). */
const DEFAULT_MAX_CHARS = 2_000_000;
/** Answers kept: each holds its estimate with evidence, ~5–15 KB, so ~15 MB at most. */
const MAX_ENTRIES = 1_000;
/** Texts longer than this are analysed every time: one would crowd out hundreds of short ones. */
const LONGEST_KEPT = 20_000;
/** Characters of serialised answers kept, keys included (~6.4 KB an answer with content: ~1,200 of them). */
const BODY_CHARS = 8_000_000;

/**
 * analyzeSubmittedText with the answer reused for a text seen before. The text model is
 * deterministic and loaded once per process, so the same text and text type always give the same
 * estimate (with evidence) or the same reason for none; a client that sends one profile again (a
 * CRM asking on every page view) costs a lookup instead of a reading. Bounded by the characters
 * it keeps and in answers, least recently used first out; errors (an over-long or empty text)
 * are not kept.
 */
export class TextResultCache {
  /** Null when made with 0 characters: every text is analysed (tests compare the two). */
  private readonly results: LRUCache<string, SubmittedTextResult> | null;
  /**
   * The bytes each route answered for a text: a repeat costs a lookup and a write, with no
   * shaping or serialising. Keyed by the route's own key too (its shape, and the base URL its
   * links are built from), since one text is answered differently by each.
   */
  private readonly bodies: LRUCache<string, string> | null;
  private hitCount = 0;

  constructor(maxChars = DEFAULT_MAX_CHARS) {
    this.results = maxChars > 0 ? new LRUCache({ max: MAX_ENTRIES, maxSize: maxChars, sizeCalculation: (_value, key) => Math.max(1, key.length) }) : null;
    this.bodies = maxChars > 0 ? new LRUCache({ max: MAX_ENTRIES * 2, maxSize: BODY_CHARS, sizeCalculation: (body, key) => Math.max(1, key.length + body.length) }) : null;
  }

  /** Answers reused since start: a reading, or a whole serialised answer. */
  get hits(): number {
    return this.hitCount;
  }

  /**
   * A route's serialised answer for `text`: the bytes it answered before for the same text, text
   * type and `routeKey`, or those `render` makes of the (possibly reused) reading. `render` must
   * be a function of the reading and what `routeKey` names alone, so the kept bytes are the ones
   * it would make again (test/http/analysis-text-reuse.test.ts compares them).
   */
  async answer(pool: TextPool, text: string, textType: TextType | undefined, routeKey: string, render: (result: SubmittedTextResult) => string): Promise<string> {
    if (this.bodies === null || text.length > LONGEST_KEPT) return render(await this.analyze(pool, text, textType));
    const key = `${routeKey}\u0000${textType ?? ''}\u0000${text}`;
    const found = this.bodies.get(key);
    if (found !== undefined) {
      this.hitCount += 1;
      return found;
    }
    const body = render(await this.analyze(pool, text, textType));
    this.bodies.set(key, body);
    return body;
  }

  async analyze(pool: TextPool, text: string, textType?: TextType): Promise<SubmittedTextResult> {
    if (this.results === null || text.length > LONGEST_KEPT) return analyzeSubmittedText(pool, text, textType);
    const key = `${textType ?? ''}\u0000${text}`;
    const found = this.results.get(key);
    if (found !== undefined) {
      this.hitCount += 1;
      return found;
    }
    // Every later caller of this text is served this very object: the routes only read it (the
    // shapes copy what they show). Frozen at its top only: freezing each evidence item cost
    // ~0.2 ms a text, a fifth of reading it.
    const result = Object.freeze(await analyzeSubmittedText(pool, text, textType));
    this.results.set(key, result);
    return result;
  }
}
