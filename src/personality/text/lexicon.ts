import { hashWord } from './hashing.ts';
import { LEXICON } from './lexicon-data.ts';
import type { Phrase } from './signals.ts';
import { WordMemo } from './word-memo.ts';

/**
 * The word classes compiled once into Map lookups: an exact-word map and a stem map
 * probed by prefix. What a word resolves to is memoised, so a repeated word (most of
 * any text) costs one Map lookup.
 */

export const CATEGORY_NAMES: readonly string[] = LEXICON.map(([name]) => name);

export interface WordInfo {
  /** The word itself (the memo's key). */
  word: string;
  /** Indexes into CATEGORY_NAMES, each at most once. */
  categories: readonly number[];
  hash: number;
  /*
   * Filled by later stages on a word's first use, so that a word repeated across texts costs
   * one memo look-up here rather than one per stage: its row in the last word table it was
   * looked up in (-1: not there) beside that table (predict.ts), and the signal phrases that
   * may start with it (signals.ts).
   */
  table: object | undefined;
  tableRow: number | undefined;
  startsPhrases: readonly Phrase[] | undefined;
  /** Whether it is one of the frequent English words the language check counts (junk.ts). */
  englishFunctionWord: boolean | undefined;
  /** The kind-of-writing detector's word marks (genre.ts: pronoun person, musing), -1 until asked. */
  genreMarks: number;
  /** Scratch of words.ts, numbering a text's distinct words: the last text this word was seen in, and its number there. */
  seenInText: number;
  idInText: number;
}

interface CompiledLexicon {
  exact: Map<string, number[]>;
  stems: Map<string, number[]>;
  shortestStem: number;
  longestStem: number;
}

function addTo(map: Map<string, number[]>, key: string, category: number): void {
  const existing = map.get(key);
  if (existing === undefined) map.set(key, [category]);
  else if (!existing.includes(category)) existing.push(category);
}

function compile(): CompiledLexicon {
  const exact = new Map<string, number[]>();
  const stems = new Map<string, number[]>();
  let shortestStem = Number.POSITIVE_INFINITY;
  let longestStem = 0;
  LEXICON.forEach(([, entries], category) => {
    for (const entry of entries.split(/\s+/)) {
      if (entry === '') continue;
      if (entry.endsWith('*')) {
        const stem = entry.slice(0, -1);
        addTo(stems, stem, category);
        shortestStem = Math.min(shortestStem, stem.length);
        longestStem = Math.max(longestStem, stem.length);
      } else {
        addTo(exact, entry, category);
      }
    }
  });
  return { exact, stems, shortestStem, longestStem };
}

const compiled = compile();

/**
 * One array per distinct set of categories, shared by every word that has that set (most words
 * have none): the feature pass reads each word's set, and a few hundred shared arrays stay in
 * the processor's cache where one array per word of the memo would not.
 */
const categorySets = new Map<string, readonly number[]>();

function sharedCategories(found: readonly number[]): readonly number[] {
  const key = found.join(',');
  const shared = categorySets.get(key);
  if (shared !== undefined) return shared;
  categorySets.set(key, found);
  return found;
}

function resolveCategories(word: string): readonly number[] {
  const found: number[] = [];
  const add = (categories: readonly number[] | undefined): void => {
    if (categories === undefined) return;
    for (const category of categories) if (!found.includes(category)) found.push(category);
  };
  add(compiled.exact.get(word));
  const longest = Math.min(word.length, compiled.longestStem);
  for (let length = compiled.shortestStem; length <= longest; length++) {
    add(compiled.stems.get(word.slice(0, length)));
  }
  return sharedCategories(found);
}

// Bounded so that a stream of unique junk words cannot grow memory without limit.
const MEMO_LIMIT = 200_000;
const memo = new WordMemo<WordInfo>();
let memoClears = 0;

/**
 * How many times the memo has been emptied. A word looked up before and after a clear gets two
 * entries: words.ts, which numbers a text's words by entry, checks this to know its numbers hold.
 */
export function lexiconMemoClears(): number {
  return memoClears;
}

/** What the lexicon holds of `word` (lower-cased); `hash` is hashWord(word), which the tokenizer gives with each word. */
export function lookupWord(word: string, hash: number = hashWord(word)): WordInfo {
  const cached = memo.get(word, hash);
  if (cached !== undefined) return cached;
  if (memo.size >= MEMO_LIMIT) {
    memo.clear();
    memoClears++;
  }
  // Every field set here, so every entry has one shape and the stages' property reads stay monomorphic.
  const info: WordInfo = {
    word,
    categories: resolveCategories(word),
    hash,
    table: undefined,
    tableRow: undefined,
    startsPhrases: undefined,
    englishFunctionWord: undefined,
    genreMarks: -1,
    seenInText: -1,
    idInText: -1,
  };
  memo.add(info, hash);
  return info;
}

/** Position of a class in CATEGORY_NAMES, or -1 when there is no such class. */
export function categoryIndex(name: string): number {
  return CATEGORY_NAMES.indexOf(name);
}
