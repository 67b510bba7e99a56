import { lexiconMemoClears, lookupWord, type WordInfo } from './lexicon.ts';

/**
 * A text's words looked up once: each word's lexicon entry, and a number per distinct word.
 * The stages that count words (junk.ts, features.ts, genre.ts) index typed arrays by these
 * numbers instead of each keeping a Map or Set keyed by the word's string, which cost a string
 * hash and compare per word and stage.
 */
export interface TextWords {
  /** Per word (tokens.words order): its lexicon entry. */
  infos: WordInfo[];
  /** Per word: its distinct word's number, 0, 1, 2… in order of first use in the text. */
  ids: Int32Array;
  /** How many distinct words the text holds. */
  distinct: number;
}

/**
 * Each call's mark on the entries it numbers (WordInfo.seenInText): an entry last seen under
 * another mark is new to this text. Entries are shared by every text a thread reads, and a
 * call finishes numbering before the next starts (all of it is synchronous), so the marks
 * never mix.
 */
let textMark = 0;

/** `hashes`, when given: per word, its hashWord (the tokenizer's `wordHashes`), which spares hashing it again. */
export function readWords(words: readonly string[], hashes?: readonly number[]): TextWords {
  // A count, never reset: 2⁵³ texts would not wrap it.
  const mark = ++textMark;
  const clearsBefore = lexiconMemoClears();
  const infos: WordInfo[] = [];
  const ids = new Int32Array(words.length);
  let distinct = 0;
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    const hash = hashes?.[i];
    const info = hash === undefined ? lookupWord(word) : lookupWord(word, hash);
    if (info.seenInText !== mark) {
      info.seenInText = mark;
      info.idInText = distinct++;
    }
    infos.push(info);
    ids[i] = info.idInText;
  }
  if (lexiconMemoClears() === clearsBefore) return { infos, ids, distinct };
  // The memo was emptied part-way (it is bounded): a word seen on both sides of the clear has two
  // entries, so two numbers. Rare (once per 200,000 new words a thread reads); numbered again by
  // the words themselves, so the text reads the same as with no clear.
  return { infos, ...numberedByString(words) };
}

function numberedByString(words: readonly string[]): { ids: Int32Array; distinct: number } {
  const numbers = new Map<string, number>();
  const ids = new Int32Array(words.length);
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    let id = numbers.get(word);
    if (id === undefined) {
      id = numbers.size;
      numbers.set(word, id);
    }
    ids[i] = id;
  }
  return { ids, distinct: numbers.size };
}
