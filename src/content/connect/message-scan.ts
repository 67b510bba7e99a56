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

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;

function isBoundary(ch: string): boolean {
  return ch === '.' || ch === '!' || ch === '?' || ch === '\n' || ch === '\u2026';
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
  const tokens: Token[] = [];
  for (const match of text.matchAll(WORD)) {
    tokens.push({ word: match[0].toLowerCase().replaceAll('’', "'"), start: match.index, end: match.index + match[0].length });
  }
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
    while (i < text.length && !isBoundary(text.charAt(i))) i++;
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
