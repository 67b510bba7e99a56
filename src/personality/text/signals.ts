import type { WordInfo } from './lexicon.ts';
import { SIGNALS } from './signal-data.ts';
import { NUMBER_KINDS, type TokenizedText } from './tokenizer.ts';

/**
 * Finds the behavioural signals of signal-data.ts in a tokenised text: one walk over its words
 * and numbers, one memoised look-up per word, the longest phrase at each position. Counts feed
 * the model; matches, with their character offsets, feed the evidence.
 */

export const SIGNAL_NAMES: readonly string[] = SIGNALS.map((signal) => signal.name);
const EXCLAMATION = SIGNAL_NAMES.indexOf('exclamation');

/** Number tokens by kind (tokenizer NUMBER_KINDS order): plain, percent, money, multiple, decimal. */
const NUMBER_KEYS = ['#', '#%', '#$', '#x', '#.'];
const NUMBER_KIND_MONEY: number = NUMBER_KINDS.money;
const NUMBER_KIND_PERCENT: number = NUMBER_KINDS.percent;

interface Step {
  /** A whole word or number key, or a stem when `stem` is set. */
  text: string;
  stem: boolean;
}

export interface Phrase {
  signal: number;
  steps: Step[];
  sentenceStart: boolean;
}

export interface SignalMatch {
  signal: number;
  /** Offsets in the tokenized text: [start, end). */
  start: number;
  end: number;
}

/** The opening of a text, in words: what a writer leads with says most about their style. */
export const LEAD_WORDS = 40;

export interface SignalReading {
  /** Per signal (SIGNAL_NAMES order): how many times it was found. */
  counts: Float64Array;
  /** The same within the first LEAD_WORDS words. */
  leadCounts: Float64Array;
  /** Every match, in text order, when asked for. */
  matches?: SignalMatch[];
}

function parseStep(raw: string): Step {
  return raw.endsWith('*') ? { text: raw.slice(0, -1), stem: true } : { text: raw, stem: false };
}

function compile(): { exact: Map<string, Phrase[]>; stems: Map<string, Phrase[]>; longestStem: number } {
  const exact = new Map<string, Phrase[]>();
  const stems = new Map<string, Phrase[]>();
  let longestStem = 0;
  SIGNALS.forEach((definition, signal) => {
    for (const rawPhrase of definition.phrases.split('|')) {
      const cleaned = rawPhrase.replace(/-/g, ' ').trim();
      if (cleaned === '') continue;
      const sentenceStart = cleaned.startsWith('^');
      const steps = cleaned.replace(/^\^/, '').split(/\s+/).map(parseStep);
      const first = steps[0];
      if (first === undefined) continue;
      const phrase: Phrase = { signal, steps, sentenceStart };
      const index = first.stem ? stems : exact;
      const list = index.get(first.text) ?? [];
      list.push(phrase);
      index.set(first.text, list);
      if (first.stem) longestStem = Math.max(longestStem, first.text.length);
    }
  });
  return { exact, stems, longestStem };
}

const compiled = compile();
const MEMO_LIMIT = 200_000;
const memo = new Map<string, readonly Phrase[]>();
const NO_PHRASES: readonly Phrase[] = [];

/** Phrases that may start at a token: its exact entries, then those of every stem it begins with. */
function candidatesFor(token: string): readonly Phrase[] {
  const cached = memo.get(token);
  if (cached !== undefined) return cached;
  const found: Phrase[] = [...(compiled.exact.get(token) ?? [])];
  for (let length = 1; length <= Math.min(token.length, compiled.longestStem); length++) {
    const list = compiled.stems.get(token.slice(0, length));
    if (list !== undefined) found.push(...list);
  }
  // Longest first (a stable sort: among phrases of one length, their order stays), so the first
  // phrase that matches is the one readSignals keeps, and it looks no further.
  found.sort((a, b) => b.steps.length - a.steps.length);
  // Most words start no phrase: they share one empty list, which stays in the cache.
  const phrases = found.length === 0 ? NO_PHRASES : found;
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(token, phrases);
  return phrases;
}

function stepMatches(step: Step, token: string | undefined): boolean {
  if (token === undefined) return false;
  return step.stem ? token.startsWith(step.text) : token === step.text;
}

/**
 * Words and numbers in text order: per token, its word's index, or −1 − its number's index in
 * `numberMarks`. One array instead of one per property: what a match needs (its key, offsets,
 * whether it starts a sentence) is read from the token's word or number when it is needed.
 */
function tokenOrder(tokens: TokenizedText): Int32Array {
  const { words, numberMarks } = tokens;
  const order = new Int32Array(words.length + numberMarks.length);
  let position = 0;
  let mark = 0;
  for (let w = 0; w <= words.length; w++) {
    for (let next = numberMarks[mark]; next !== undefined && next.beforeWord === w; next = numberMarks[++mark]) order[position++] = -1 - mark;
    if (w < words.length) order[position++] = w;
  }
  // Every number stands before a word or at the end, so every slot is filled.
  return order;
}

/** Per word, 1 when it opens a sentence (the sentences hold every word, in order). */
function sentenceOpenings(tokens: TokenizedText): Uint8Array {
  const firstWords = new Uint8Array(tokens.words.length + 1);
  let word = 0;
  for (const length of tokens.sentenceLengths) {
    firstWords[word] = 1;
    word += length;
  }
  return firstWords;
}

/** A token's first offset; a number's sign is part of the figure a reader sees: "$2". */
function tokenStart(tokens: TokenizedText, token: number): number {
  if (token >= 0) return tokens.wordStarts[token] ?? 0;
  const number = tokens.numberMarks[-1 - token];
  if (number === undefined) return 0;
  return number.kind === NUMBER_KIND_MONEY ? number.start - 1 : number.start;
}

/** A token's end offset; a share's sign is part of the figure: "30%". */
function tokenEnd(tokens: TokenizedText, token: number): number {
  if (token >= 0) return (tokens.wordStarts[token] ?? 0) + (tokens.words[token] ?? '').length;
  const number = tokens.numberMarks[-1 - token];
  if (number === undefined) return 0;
  return number.kind === NUMBER_KIND_PERCENT ? number.end + 1 : number.end;
}

/** How many words before an exclamation mark its evidence span reaches back. */
const EXCLAIMED_WORDS = 4;

/** A word's phrases, kept with its lexicon entry when there is one (`infos`: per word, as extractFeatures looked them up). */
function phrasesAt(key: string, number: boolean, info: WordInfo | undefined): readonly Phrase[] {
  if (number || info === undefined) return candidatesFor(key);
  info.startsPhrases ??= candidatesFor(key);
  return info.startsPhrases;
}

/** The key of the token at `position` of `order` (tokenOrder): its word, or its number's kind (NUMBER_KEYS); undefined past the end. */
function keyAt(tokens: TokenizedText, order: Int32Array, position: number): string | undefined {
  const token = order[position];
  if (token === undefined) return undefined;
  return token >= 0 ? tokens.words[token] : (NUMBER_KEYS[tokens.numberMarks[-1 - token]?.kind ?? 0] ?? '#');
}

export function readSignals(tokens: TokenizedText, withMatches: boolean, infos?: readonly WordInfo[]): SignalReading {
  const counts = new Float64Array(SIGNALS.length);
  const leadCounts = new Float64Array(SIGNALS.length);
  const matches: SignalMatch[] | undefined = withMatches ? [] : undefined;
  const { words, numberMarks } = tokens;
  const order = tokenOrder(tokens);
  const firstWords = sentenceOpenings(tokens);
  let position = 0;
  while (position < order.length) {
    const token = order[position] ?? 0;
    const number = token < 0 ? numberMarks[-1 - token] : undefined;
    const opensSentence = token >= 0 && firstWords[token] === 1;
    const candidates = number !== undefined ? candidatesFor(NUMBER_KEYS[number.kind] ?? '#') : phrasesAt(words[token] ?? '', false, infos?.[token]);
    // The longest phrase that matches here, the first listed among the longest: candidates come longest first.
    let best: Phrase | undefined;
    for (const phrase of candidates) {
      if (phrase.sentenceStart && !opensSentence) continue;
      let matched = true;
      for (let k = 1; k < phrase.steps.length && matched; k++) matched = stepMatches(phrase.steps[k] ?? { text: '', stem: false }, keyAt(tokens, order, position + k));
      if (matched) {
        best = phrase;
        break;
      }
    }
    if (best === undefined) {
      position++;
      continue;
    }
    counts[best.signal] = (counts[best.signal] ?? 0) + 1;
    // A number counts at the word it stands before.
    if ((number !== undefined ? number.beforeWord : token) < LEAD_WORDS) leadCounts[best.signal] = (leadCounts[best.signal] ?? 0) + 1;
    const last = position + best.steps.length - 1;
    if (matches !== undefined) matches.push({ signal: best.signal, start: tokenStart(tokens, token), end: tokenEnd(tokens, order[last] ?? 0) });
    position = last + 1;
  }
  if (EXCLAMATION >= 0) {
    counts[EXCLAMATION] = tokens.exclamationMarks.length;
    leadCounts[EXCLAMATION] = tokens.exclamationMarks.filter((mark) => mark.beforeWord <= LEAD_WORDS).length;
    if (matches !== undefined) {
      for (const mark of tokens.exclamationMarks) {
        const from = Math.max(0, mark.beforeWord - EXCLAIMED_WORDS);
        const start = mark.beforeWord > 0 ? (tokens.wordStarts[from] ?? mark.at) : mark.at;
        matches.push({ signal: EXCLAMATION, start, end: mark.at + 1 });
      }
      matches.sort((a, b) => a.start - b.start || a.signal - b.signal);
    }
  }
  return matches === undefined ? { counts, leadCounts } : { counts, leadCounts, matches };
}
