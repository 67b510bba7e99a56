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
  private hitCount = 0;

  constructor(maxChars = DEFAULT_MAX_CHARS) {
    this.results = maxChars > 0 ? new LRUCache({ max: MAX_ENTRIES, maxSize: maxChars, sizeCalculation: (_value, key) => Math.max(1, key.length) }) : null;
  }

  /** Answers reused since start. */
  get hits(): number {
    return this.hitCount;
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
