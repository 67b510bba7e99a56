/**
 * One linear pass over a draft message: words (with UTF-16 offsets, which is what JavaScript
 * string indices and the API's `start`/`end` count), sentences, exclamation runs, and the
 * phrase lists the checks look for. Every regular expression here is a single character class
 * or a sequence without nested repetition, so no input can make it backtrack: a 20,000-char
 * single word is as cheap as a letter.
 */

export interface Token {
  /** Lower case, curly apostrophes made straight. */
  word: string;
  start: number;
  end: number;
}

export interface Sentence {
  start: number;
  end: number;
  /** Index of the sentence's first token in the token list, and how many it has. */
  firstToken: number;
  words: number;
  hasDigit: boolean;
  question: boolean;
}

export interface Match {
  start: number;
  end: number;
  /** The phrase as listed (lower case), for naming the kind of issue. */
  phrase: string;
  sentence: number;
}

export interface Scan {
  text: string;
  tokens: Token[];
  sentences: Sentence[];
  /** Runs of one or more '!'. */
  exclamations: { start: number; end: number; sentence: number }[];
  /** Sentence index of each token. */
  tokenSentence: number[];
}

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

/**
 * The length in UTF-16 units of the letter or digit at k (2 for one outside the BMP), or 0: ASCII
 * at once, anything else through the Unicode classes.
 */
function wordCharAt(text: string, k: number): number {
  const code = text.charCodeAt(k);
  if (code < 128) return (code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) <= 122) ? 1 : 0;
  if (Number.isNaN(code)) return 0;
  const length = code >= 0xd800 && code <= 0xdbff ? 2 : 1;
  return LETTER_OR_DIGIT.test(text.slice(k, k + length)) ? length : 0;
}

/**
 * Words: runs of letters and digits, joined by an apostrophe between two of them ("don't",
 * "O’Neil"), as `[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*` would read them, in one pass by hand (the
 * regular expression cost most of the scan).
 */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let k = 0;
  while (k < text.length) {
    let length = wordCharAt(text, k);
    if (length === 0) {
      k++;
      continue;
    }
    const start = k;
    let curly = false;
    for (;;) {
      while (length > 0) {
        k += length;
        length = wordCharAt(text, k);
      }
      const code = text.charCodeAt(k);
      if ((code !== 39 && code !== 0x2019) || (length = wordCharAt(text, k + 1)) === 0) break;
      if (code === 0x2019) curly = true;
      k += 1;
    }
    const lower = text.slice(start, k).toLowerCase();
    tokens.push({ word: curly ? lower.replaceAll('’', "'") : lower, start, end: k });
  }
  return tokens;
}

function isBoundary(ch: string): boolean {
  return ch === '.' || ch === '!' || ch === '?' || ch === '\n' || ch === '\u2026';
}

/** Titles and abbreviations whose full stop ends no sentence ("Dr. Patel", "approx. 40"). */
const ABBREVIATIONS = new Set(['mr', 'mrs', 'ms', 'mx', 'dr', 'prof', 'st', 'sr', 'jr', 'vs', 'approx', 'ca', 'cf', 'no', 'nr', 'ref', 'fig', 'dept', 'est']);

/**
 * A full stop inside a word ("example.com", "2.4", "e.g") or after a title ("Dr. Patel") does not
 * end the sentence. Looks back over at most a few letters, so the scan stays linear.
 */
function stopEndsSentence(text: string, i: number): boolean {
  const next = text.charAt(i + 1);
  if (/[\p{L}\p{N}]/u.test(next)) return false;
  if (/^(?:e\.g|i\.e)$/i.test(text.slice(i - 3, i))) return false;
  let start = i;
  while (start > 0 && i - start < 6 && /\p{L}/u.test(text.charAt(start - 1))) start--;
  if (start > 0 && /\p{L}/u.test(text.charAt(start - 1))) return true;
  const word = text.slice(start, i).toLowerCase();
  return !(ABBREVIATIONS.has(word) && next === ' ' && /[\p{L}\p{N}]/u.test(text.charAt(i + 2)));
}

function isSpace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\u00a0' || ch === '\u2028' || ch === '\u2029';
}

/** An ASCII digit in text[start, end), without copying the slice. */
function hasDigit(text: string, start: number, end: number): boolean {
  for (let k = start; k < end; k++) {
    const code = text.charCodeAt(k);
    if (code >= 48 && code <= 57) return true;
  }
  return false;
}

export function scanMessage(text: string): Scan {
  const tokens = tokenize(text);
  const sentences: Sentence[] = [];
  const exclamations: Scan['exclamations'] = [];
  const tokenSentence: number[] = new Array<number>(tokens.length);
  let t = 0;
  let i = 0;
  while (i < text.length) {
    while (i < text.length && isSpace(text.charAt(i))) i++;
    if (i >= text.length) break;
    const start = i;
    // A sentence runs to its terminal punctuation (the whole run of it), or a line break.
    while (i < text.length) {
      const code = text.charCodeAt(i);
      // Only . ! ? \n and … can end a sentence: everything else moves on at once.
      if ((code === 46 && stopEndsSentence(text, i)) || code === 33 || code === 63 || code === 10 || code === 0x2026) break;
      i++;
    }
    let question = false;
    while (i < text.length && isBoundary(text.charAt(i)) && text.charAt(i) !== '\n') {
      const runStart = i;
      if (text.charAt(i) === '!') {
        while (i < text.length && text.charAt(i) === '!') i++;
        exclamations.push({ start: runStart, end: i, sentence: sentences.length });
      } else {
        if (text.charAt(i) === '?') question = true;
        i++;
      }
    }
    // Keep a closing quote or bracket with the sentence it ends.
    while (i < text.length && /["')\]”’»]/.test(text.charAt(i))) i++;
    let end = i;
    while (end > start && isSpace(text.charAt(end - 1))) end--;
    const firstToken = t;
    while (t < tokens.length && (tokens[t]?.start ?? Infinity) < i) {
      tokenSentence[t] = sentences.length;
      t++;
    }
    if (end > start) {
      sentences.push({ start, end, firstToken, words: t - firstToken, hasDigit: hasDigit(text, start, end), question });
    }
    if (i < text.length && text.charAt(i) === '\n') i++;
  }
  // Tokens can only fall inside sentences, but keep the array dense whatever happens.
  for (let k = 0; k < tokens.length; k++) tokenSentence[k] ??= Math.max(0, sentences.length - 1);
  return { text, tokens, sentences, exclamations, tokenSentence };
}

/** A phrase list compiled for lookup by first word. */
export class PhraseSet {
  private readonly byFirst = new Map<string, string[][]>();

  constructor(phrases: readonly string[]) {
    for (const phrase of phrases) {
      const words = phrase.split(/[\s-]+/);
      const first = words[0] ?? '';
      const list = this.byFirst.get(first) ?? [];
      list.push(words);
      // Longest first, so "best in class" wins over "best".
      list.sort((a, b) => b.length - a.length);
      this.byFirst.set(first, list);
    }
  }

  /** Length in tokens of the longest phrase starting at token k, or 0. */
  matchAt(scan: Scan, k: number): number {
    const { tokens, text } = scan;
    const token = tokens[k];
    const candidates = token === undefined ? undefined : this.byFirst.get(token.word);
    if (candidates === undefined) return 0;
    for (const words of candidates) {
      let ok = k + words.length <= tokens.length;
      for (let w = 1; w < words.length && ok; w++) {
        const prev = tokens[k + w - 1];
        const next = tokens[k + w];
        // Words of a phrase are separated by spaces or hyphens only, not by punctuation.
        ok =
          prev !== undefined &&
          next !== undefined &&
          next.word === words[w] &&
          next.start - prev.end <= 3 &&
          /^[\s-]+$/.test(text.slice(prev.end, next.start));
      }
      if (ok) return words.length;
    }
    return 0;
  }

  /** Every occurrence in the scan, non-overlapping, in order. */
  find(scan: Scan): Match[] {
    const found: Match[] = [];
    const { tokens } = scan;
    for (let k = 0; k < tokens.length; k++) {
      const length = this.matchAt(scan, k);
      if (length === 0) continue;
      const first = tokens[k];
      const last = tokens[k + length - 1];
      if (first === undefined || last === undefined) continue;
      const phrase = tokens.slice(k, k + length).map((t) => t.word).join(' ');
      found.push({ start: first.start, end: last.end, phrase, sentence: scan.tokenSentence[k] ?? 0 });
      k += length - 1;
    }
    return found;
  }

  has(scan: Scan): boolean {
    for (let k = 0; k < scan.tokens.length; k++) if (this.matchAt(scan, k) > 0) return true;
    return false;
  }
}
