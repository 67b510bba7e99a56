import { LRUCache } from 'lru-cache';
import { composeProfileContent, type ProfileContent } from './compose-profile.ts';
import { describeWith, type DescribeOptions, type PersonalityDescription } from './describe.ts';
import type { PhraseLibrary } from './phrases.ts';
import type { Reading } from './reading.ts';
import type { TraitEstimate } from '../personality/types.ts';
import { deepFreeze } from '../shared/deep-freeze.ts';

/** Composed contents kept; one is ~6 KB of strings, so the cache holds at most ~6 MB. */
const DEFAULT_ENTRIES = 1_000;

/**
 * describePersonality (describe.ts) with the composed content reused for equal composition
 * inputs. Composing is pure (compose-profile.ts): the same reading and name always give the same
 * text. The key is the whole reading (a superset of what composing reads of it) and the name, so
 * a reused content is the one composing would have made, byte for byte. The view and reading are
 * made fresh each time: they are cheap, and the key is built from the reading.
 * One per process (the context's `descriptions`), bounded in entries, least recently used first out.
 */
export class DescriptionCache {
  /** Null when made with 0 entries: every content is composed anew (tests compare the two). */
  private readonly contents: LRUCache<string, ProfileContent> | null;
  private hitCount = 0;
  private missCount = 0;

  constructor(
    /** The phrase library, asked for when content is first composed (a CLI context loads it on first use). */
    private readonly phrases: () => PhraseLibrary,
    entries = DEFAULT_ENTRIES,
  ) {
    this.contents = entries > 0 ? new LRUCache({ max: entries }) : null;
  }

  describe(estimate: TraitEstimate, firstName?: string | null, options: DescribeOptions = {}): PersonalityDescription {
    return describeWith((reading, name) => this.compose(reading, name), estimate, firstName, options);
  }

  /** Reuses and misses since start (tests and the bench read them). */
  get stats(): { hits: number; misses: number; size: number } {
    return { hits: this.hitCount, misses: this.missCount, size: this.contents?.size ?? 0 };
  }

  private compose(reading: Reading, firstName: string | null): ProfileContent {
    if (this.contents === null) return composeProfileContent({ reading, firstName }, this.phrases());
    const key = `${firstName ?? ''}\u0000${JSON.stringify(reading)}`;
    const found = this.contents.get(key);
    if (found !== undefined) {
      this.hitCount += 1;
      return found;
    }
    this.missCount += 1;
    const content = deepFreeze(composeProfileContent({ reading, firstName }, this.phrases()));
    this.contents.set(key, content);
    return content;
  }
}
