/**
 * One pass over the characters of a text. It yields the lower-cased words and the
 * counts that describe the text's shape (sentences, punctuation, capitals), so no
 * later stage has to scan the text again or run a regular expression per word.
 */
import { FNV_OFFSET, FNV_PRIME, hashWord } from './hashing.ts';

export interface PunctuationCounts {
  comma: number;
  period: number;
  exclamation: number;
  question: number;
  /** Colons and semicolons: both join clauses the writer chose not to split. */
  colon: number;
  dash: number;
  quote: number;
  parenthesis: number;
  ellipsis: number;
  /** Apostrophes inside words (contractions, possessives): a mark of informal writing. */
  apostrophe: number;
}

/** What a number token was written as: plain, a share (`30%`), money (`$2M`, `£40k`), a multiple (`3x`) or a decimal (`2.3`). */
export const NUMBER_KINDS = { plain: 0, percent: 1, money: 2, multiple: 3, decimal: 4 } as const;

export interface TokenizedText {
  /** Word tokens, lower-cased, curly apostrophes folded to `'`. */
  words: string[];
  /** Per word: hashWord(word) (hashing.ts), computed as its letters are read; the lexicon's memo is keyed by it. */
  wordHashes: number[];
  /** Per word: the offset of its first character in the tokenized text (for evidence spans). */
  wordStarts: number[];
  /**
   * Per word: 1 when it was written with a capital inside a sentence (a name: of a person, a
   * place, a company), else 0. Word meanings (the word table) leave names out: what a name
   * evokes says nothing about how its bearer writes.
   */
  capitalized: number[];
  /**
   * Per number token: the index of the word that follows it (words.length when it came
   * last), its kind (NUMBER_KINDS) and its offsets, so phrases like "by 9 am" or "grew 30%"
   * can be read without numbers being words.
   */
  numberMarks: { beforeWord: number; kind: number; start: number; end: number }[];
  /** Per exclamation mark: the index of the word that follows it and its offset. */
  exclamationMarks: { beforeWord: number; at: number }[];
  /** Words per sentence, for every sentence holding at least one word. */
  sentenceLengths: number[];
  letters: number;
  /** Letters a, e, i, o, u, y: random keystrokes have far fewer than any language. */
  vowels: number;
  /** Letters outside ASCII: a text mostly in another script is not English. */
  nonAsciiLetters: number;
  /** Words with four consonants in a row: rare in English, common in random strings. */
  consonantClusterWords: number;
  /** Words written with an initial capital that do not start a sentence. */
  midSentenceCapitals: number;
  /** Words of two or more letters written entirely in capitals (shouting, acronyms). */
  allCapsWords: number;
  /** The pronoun "I" written in lower case: a habit of hurried, informal typing. */
  lowercaseI: number;
  /** Tokens made of digits (with inner `.`, `,`, `:`), such as years, prices, times. */
  numbers: number;
  /** Characters that are neither letters, digits, spaces nor ordinary punctuation. */
  symbols: number;
  nonSpaceChars: number;
  punctuation: PunctuationCounts;
}

const NON_ASCII_LETTER = /\p{L}/u;

/** Lower-case ASCII code → 1 for a vowel (y counted: "rhythm", "my"). */
const VOWEL = new Uint8Array(128);
for (const vowel of 'aeiouy') VOWEL[vowel.charCodeAt(0)] = 1;

function isAsciiLetter(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
}

function isLetter(text: string, index: number, code: number): boolean {
  if (code < 128) return isAsciiLetter(code);
  // Rare in English text, so a Unicode check here costs little.
  return NON_ASCII_LETTER.test(text.charAt(index));
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isApostrophe(code: number): boolean {
  return code === 39 || code === 0x2019;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 0xa0 || code === 12 || code === 11;
}

const MONEY_SIGNS = new Set([36, 0xa3, 0x20ac, 0x20b9, 0xa5]);

/** A number's kind from the characters around it: `$2`, `30%`, `3x` (not `3xl`), `40k`/`2m`/`1bn` after money. */
function numberKind(text: string, start: number, end: number): number {
  const before = start > 0 ? text.charCodeAt(start - 1) : 0;
  const after = end < text.length ? text.charCodeAt(end) : 0;
  if (after === 37) return NUMBER_KINDS.percent;
  if (MONEY_SIGNS.has(before)) return NUMBER_KINDS.money;
  const next = end + 1 < text.length ? text.charCodeAt(end + 1) : 0;
  if ((after === 120 || after === 88) && !isAsciiLetter(next)) return NUMBER_KINDS.multiple;
  // 2.3 or 0.75: a figure given to a decimal place.
  const dot = text.indexOf('.', start);
  return dot > start && dot < end ? NUMBER_KINDS.decimal : NUMBER_KINDS.plain;
}

function emptyPunctuation(): PunctuationCounts {
  return { comma: 0, period: 0, exclamation: 0, question: 0, colon: 0, dash: 0, quote: 0, parenthesis: 0, ellipsis: 0, apostrophe: 0 };
}

/**
 * A sentence's end: its length kept when it held a word; the count for the next one (0).
 * A function of the module, not a closure made per text: a closure is allocated on every call,
 * and named by tsx's `__name` (a property definition) when run from source.
 */
function endSentence(sentenceLengths: number[], wordsInSentence: number): 0 {
  if (wordsInSentence > 0) sentenceLengths.push(wordsInSentence);
  return 0;
}

export function tokenize(text: string): TokenizedText {
  const words: string[] = [];
  const wordHashes: number[] = [];
  const wordStarts: number[] = [];
  const capitalized: number[] = [];
  const numberMarks: TokenizedText['numberMarks'] = [];
  const exclamationMarks: TokenizedText['exclamationMarks'] = [];
  const sentenceLengths: number[] = [];
  const punctuation = emptyPunctuation();
  let letters = 0;
  let vowels = 0;
  let nonAsciiLetters = 0;
  let consonantClusterWords = 0;
  let midSentenceCapitals = 0;
  let allCapsWords = 0;
  let lowercaseI = 0;
  let numbers = 0;
  let symbols = 0;
  let nonSpaceChars = 0;
  let wordsInSentence = 0;

  const length = text.length;
  let i = 0;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (isSpace(code)) {
      if (code === 10) wordsInSentence = endSentence(sentenceLengths, wordsInSentence);
      i++;
      continue;
    }
    nonSpaceChars++;

    if (isLetter(text, i, code)) {
      const start = i;
      let upper = 0;
      let wordLetters = 0;
      let hasApostrophe = false;
      let nonAscii = false;
      let consonantRun = 0;
      let longestConsonantRun = 0;
      // hashWord of the lower-cased word, letter by letter: exact for ASCII letters and apostrophes
      // (folded to '); a word with other letters is hashed after its lower-casing, below.
      let hash = FNV_OFFSET;
      while (i < length) {
        const c = text.charCodeAt(i);
        if (isLetter(text, i, c)) {
          wordLetters++;
          if (c >= 65 && c <= 90) {
            upper++;
            hash = Math.imul(hash ^ (c | 32), FNV_PRIME);
          } else hash = Math.imul(hash ^ c, FNV_PRIME);
          if (c >= 128) {
            nonAsciiLetters++;
            nonAscii = true;
            consonantRun = 0;
          } else if (VOWEL[c | 32] === 1) {
            vowels++;
            consonantRun = 0;
          } else {
            consonantRun++;
            if (consonantRun > longestConsonantRun) longestConsonantRun = consonantRun;
          }
          i++;
        } else if (isApostrophe(c) && i + 1 < length && isLetter(text, i + 1, text.charCodeAt(i + 1))) {
          hasApostrophe = true;
          hash = Math.imul(hash ^ 39, FNV_PRIME);
          i++;
        } else {
          break;
        }
      }
      nonSpaceChars += i - start - 1;
      letters += wordLetters;
      if (hasApostrophe) punctuation.apostrophe++;
      if (longestConsonantRun >= 4) consonantClusterWords++;
      const raw = text.slice(start, i);
      // A word of lower-case ASCII letters is its own lower case: most words of a text, spared a copy.
      const word = hasApostrophe ? raw.replace(/\u2019/g, "'").toLowerCase() : upper === 0 && !nonAscii ? raw : raw.toLowerCase();
      // The word's first character, read when the word began.
      const firstCode = code;
      let named = 0;
      if (wordLetters >= 2 && upper === wordLetters) allCapsWords++;
      else if (wordsInSentence > 0 && firstCode >= 65 && firstCode <= 90 && word !== 'i' && !word.startsWith("i'")) {
        midSentenceCapitals++;
        named = 1;
      }
      capitalized.push(named);
      if (firstCode === 105 && (raw.length === 1 || raw.startsWith("i'") || raw.startsWith('i\u2019'))) lowercaseI++;
      words.push(word);
      wordHashes.push(nonAscii ? hashWord(word) : hash >>> 0);
      wordStarts.push(start);
      wordsInSentence++;
      continue;
    }

    if (isDigit(code)) {
      const start = i;
      i++;
      while (i < length) {
        const c = text.charCodeAt(i);
        const innerSeparator = (c === 46 || c === 44 || c === 58) && i + 1 < length && isDigit(text.charCodeAt(i + 1));
        if (isDigit(c) || innerSeparator) i++;
        else break;
      }
      nonSpaceChars += i - start - 1;
      numbers++;
      numberMarks.push({ beforeWord: words.length, kind: numberKind(text, start, i), start, end: i });
      continue;
    }

    i++;
    switch (code) {
      case 46: {
        // A run of dots is one mark: "..." is an ellipsis, not three full stops.
        let run = 1;
        while (i < length && text.charCodeAt(i) === 46) {
          run++;
          i++;
        }
        nonSpaceChars += run - 1;
        if (run >= 2) punctuation.ellipsis++;
        else punctuation.period++;
        wordsInSentence = endSentence(sentenceLengths, wordsInSentence);
        break;
      }
      case 0x2026:
        punctuation.ellipsis++;
        wordsInSentence = endSentence(sentenceLengths, wordsInSentence);
        break;
      case 33:
        punctuation.exclamation++;
        exclamationMarks.push({ beforeWord: words.length, at: i - 1 });
        wordsInSentence = endSentence(sentenceLengths, wordsInSentence);
        break;
      case 63:
        punctuation.question++;
        wordsInSentence = endSentence(sentenceLengths, wordsInSentence);
        break;
      case 44:
        punctuation.comma++;
        break;
      case 58:
      case 59:
        punctuation.colon++;
        break;
      case 45:
      case 0x2013:
      case 0x2014:
        punctuation.dash++;
        break;
      case 34:
      case 39:
      case 0x201c:
      case 0x201d:
      case 0x2018:
      case 0x2019:
        punctuation.quote++;
        break;
      case 40:
      case 41:
        punctuation.parenthesis++;
        break;
      default:
        symbols++;
    }
  }
  wordsInSentence = endSentence(sentenceLengths, wordsInSentence);

  return {
    words,
    wordHashes,
    wordStarts,
    capitalized,
    numberMarks,
    exclamationMarks,
    sentenceLengths,
    letters,
    vowels,
    nonAsciiLetters,
    consonantClusterWords,
    midSentenceCapitals,
    allCapsWords,
    lowercaseI,
    numbers,
    symbols,
    nonSpaceChars,
    punctuation,
  };
}
