/**
 * When two phrases say the same thing (word overlap) or take different sides of one topic, and
 * the memory of what a profile has said so far. Used by picking.ts: a profile never repeats an
 * idea, in one list or across its sections.
 */
import { topicOf } from './claims.ts';
import type { Phrase } from './phrases.ts';

/** Word-overlap ratio above which two phrases count as saying the same thing. */
const SIMILARITY_LIMIT = 0.4;

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

export function contentWords(text: string): Set<string> {
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

/**
 * Which phrases say the same thing as a given one, or its opposite, among a fixed set: computed
 * once per phrase through an index of content words (only phrases sharing a word can be
 * similar). `warm` computes them all at start-up, so the first profiles cost what later ones do.
 */
export class SimilarityIndex {
  private readonly neighbours = new Map<string, ReadonlySet<string>>();
  private readonly opponents = new Map<string, ReadonlySet<string>>();
  private readonly byWord = new Map<string, Phrase[]>();
  private readonly byText = new Map<string, Phrase[]>();
  /** topic → side → the phrases taking it; built on first use. */
  private bySide: Map<string, Map<string, Phrase[]>> | null = null;

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

  warm(): void {
    // The index lives as long as its content: a second context sharing the content (tests share
    // it per worker) finds every phrase's neighbours already there.
    if (this.neighbours.size >= this.phrases.length) return;
    this.warmNeighbours();
    for (const phrase of this.phrases) this.opposedTo(phrase);
  }

  /**
   * `similarTo` for every phrase at once, with the same answers: the shared words of each pair
   * counted in one typed array by phrase position, not in a Map per phrase. The Map version cost
   * ~0.3 s of CPU at each start of a process (1,673 phrases, code not yet optimised by V8); this
   * does the same counting in well under half that.
   */
  private warmNeighbours(): void {
    const count = this.phrases.length;
    const words = this.phrases.map((phrase) => contentWords(phrase.text));
    const positionsByWord = new Map<string, number[]>();
    words.forEach((set, position) => {
      for (const word of set) {
        const positions = positionsByWord.get(word);
        if (positions) positions.push(position);
        else positionsByWord.set(word, [position]);
      }
    });
    const shared = new Int32Array(count);
    const touched: number[] = [];
    for (let position = 0; position < count; position += 1) {
      const phrase = this.phrases[position];
      const mine = words[position];
      if (phrase === undefined || mine === undefined || this.neighbours.has(phrase.id)) continue;
      const found = new Set<string>();
      for (const other of this.byText.get(phrase.text) ?? []) if (other.id !== phrase.id) found.add(other.id);
      for (const word of mine) {
        for (const other of positionsByWord.get(word) ?? []) {
          if (shared[other] === 0) touched.push(other);
          shared[other] = (shared[other] ?? 0) + 1;
        }
      }
      for (const other of touched) {
        const both = shared[other] ?? 0;
        shared[other] = 0;
        const otherPhrase = this.phrases[other];
        const theirs = words[other];
        if (otherPhrase === undefined || theirs === undefined || otherPhrase.id === phrase.id) continue;
        if (both / (mine.size + theirs.size - both) >= SIMILARITY_LIMIT) found.add(otherPhrase.id);
      }
      touched.length = 0;
      this.neighbours.set(phrase.id, found);
    }
  }

  /** Ids of the phrases that take another side of one of this phrase's topics. */
  opposedTo(phrase: Phrase): ReadonlySet<string> {
    let ids = this.opponents.get(phrase.id);
    if (!ids) {
      const found = new Set<string>();
      for (const side of phrase.stance ?? []) {
        for (const [otherSide, others] of this.sidesOf(topicOf(side))) if (otherSide !== side) for (const other of others) found.add(other.id);
      }
      ids = found;
      this.opponents.set(phrase.id, ids);
    }
    return ids;
  }

  /** The phrases taking each side of a topic, indexed once. */
  private sidesOf(topic: string): Map<string, Phrase[]> {
    if (this.bySide === null) {
      this.bySide = new Map();
      for (const phrase of this.phrases) {
        for (const side of phrase.stance ?? []) {
          const sides = this.bySide.get(topicOf(side)) ?? new Map<string, Phrase[]>();
          const list = sides.get(side);
          if (list) list.push(phrase);
          else sides.set(side, [phrase]);
          this.bySide.set(topicOf(side), sides);
        }
      }
    }
    return this.bySide.get(topic) ?? new Map();
  }

  /** Ids of the other phrases too close to this one (identical text included). */
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

/** What a profile has said so far: a phrase that repeats it, or takes another side of it, is not said. */
export class UsedPhrases {
  private readonly ids = new Set<string>();

  constructor(private readonly index: SimilarityIndex) {}

  has(phrase: Phrase): boolean {
    if (this.ids.has(phrase.id)) return true;
    return this.meets(this.index.similarTo(phrase)) || this.meets(this.index.opposedTo(phrase));
  }

  /** Whether any id said so far is in `others`: walks the smaller of the two (a topic's opponents run to hundreds). */
  private meets(others: ReadonlySet<string>): boolean {
    if (others.size <= this.ids.size) {
      for (const id of others) if (this.ids.has(id)) return true;
    } else {
      for (const id of this.ids) if (others.has(id)) return true;
    }
    return false;
  }

  add(phrase: Phrase): void {
    this.ids.add(phrase.id);
  }
}
