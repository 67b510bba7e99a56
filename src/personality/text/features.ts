import { BucketCounts } from './bucket-counts.ts';
import { bucketOf, hashBigram } from './hashing.ts';
import { CATEGORY_NAMES, type WordInfo } from './lexicon.ts';
import { SIGNALS } from './signal-data.ts';
import { LEAD_WORDS, readSignals, SIGNAL_NAMES, type SignalMatch } from './signals.ts';
import type { TokenizedText } from './tokenizer.ts';
import { readWords, type TextWords } from './words.ts';

const STYLES = ['D', 'I', 'S', 'C'] as const;

/**
 * Turns a tokenised text into what the model reads: a small dense vector of word-class
 * rates and style measures, and sparse hashed counts of word unigrams and bigrams.
 * Everything is computed in one walk over the words.
 */

/*
 * No measure here depends on letter case (all-caps words, mid-sentence capitals and a
 * lower-case "i" were measures until model v2): the same words typed in lower case must
 * get the same type, and casing says more about the device and the hurry than the person.
 */
export const STYLE_NAMES = [
  'words_per_sentence',
  'sentence_length_spread',
  'letters_per_word',
  'long_words',
  'vocabulary_variety',
  'comma',
  'period',
  'exclamation',
  'question',
  'colon',
  'dash',
  'quote',
  'parenthesis',
  'ellipsis',
  'apostrophe',
  'numbers',
] as const;

export const DENSE_NAMES: readonly string[] = [
  ...CATEGORY_NAMES.map((name) => `lex:${name}`),
  ...STYLE_NAMES.map((name) => `style:${name}`),
  ...SIGNAL_NAMES.map((name) => `signal:${name}`),
  ...SIGNAL_NAMES.map((name) => `lead:${name}`),
  ...STYLES.map((style) => `share:${style}`),
  ...STYLES.map((style) => `leadshare:${style}`),
];

const FIRST_LEAD = CATEGORY_NAMES.length + STYLE_NAMES.length + SIGNAL_NAMES.length;
const FIRST_SHARE = FIRST_LEAD + SIGNAL_NAMES.length;
const STYLE_OF_SIGNAL = SIGNALS.map((signal) => STYLES.indexOf(signal.leans));

/**
 * Which style's signals dominate: each style's share of all the signals found (smoothed, so a
 * text with none has a quarter each). A text of results with a few checks and one with checks
 * and a few results hold the same signals in other proportions; the shares say which leads.
 */
function styleShares(counts: Float64Array, out: Float64Array, offset: number): void {
  const totals = [0, 0, 0, 0];
  let all = 0;
  counts.forEach((count, index) => {
    const style = STYLE_OF_SIGNAL[index] ?? -1;
    if (style < 0) return;
    totals[style] = (totals[style] ?? 0) + count;
    all += count;
  });
  totals.forEach((total, style) => {
    out[offset + style] = (total + 0.5) / (all + 2);
  });
}

/** Index of the first behavioural signal among the dense measures (signals.ts). */
export const FIRST_SIGNAL = CATEGORY_NAMES.length + STYLE_NAMES.length;

export interface TextFeatures {
  /** Raw (unstandardised) values in DENSE_NAMES order. */
  dense: Float64Array;
  /** Hashed n-gram buckets and their numbers of occurrences, in order of first occurrence. */
  ngrams: BucketCounts;
  wordCount: number;
  /** The signals found, with their offsets in the tokenized text, when asked for. */
  signalMatches?: SignalMatch[];
}

/** The same with the n-gram counts as a Map (what training reads), and each word's lexicon entry. */
export interface DocumentFeatures extends Omit<TextFeatures, 'ngrams'> {
  /** Hashed n-gram bucket → number of occurrences. */
  ngrams: Map<number, number>;
  /** Per word (tokens.words order): what the lexicon holds of it. */
  wordInfos: WordInfo[];
}

/** Words of seven letters or more: the usual cut-off for "long" words in text analysis. */
const LONG_WORD_LETTERS = 7;
/** Window of the moving type-token ratio; a fixed window makes it independent of length. */
const VARIETY_WINDOW = 50;

/**
 * Rates are per 100 words and log-compressed: a few texts use a class very heavily,
 * and the logarithm keeps them from dominating the standardised scale.
 */
function rate(count: number, words: number): number {
  return Math.log1p((100 * count) / Math.max(words, 1));
}

/** Moving-average type-token ratio: the share of distinct words in every window of 50. */
function movingTypeTokenRatio({ ids, distinct: distinctInText }: TextWords): number {
  const length = ids.length;
  if (length === 0) return 0;
  if (length <= VARIETY_WINDOW) return distinctInText / length;
  const counts = new Int32Array(distinctInText);
  let distinct = 0;
  let total = 0;
  for (let i = 0; i < length; i++) {
    const entering = ids[i] ?? 0;
    if (counts[entering] === 0) distinct++;
    counts[entering] = (counts[entering] ?? 0) + 1;
    if (i >= VARIETY_WINDOW) {
      const leaving = ids[i - VARIETY_WINDOW] ?? 0;
      if (counts[leaving] === 1) distinct--;
      counts[leaving] = (counts[leaving] ?? 0) - 1;
    }
    if (i >= VARIETY_WINDOW - 1) total += distinct / VARIETY_WINDOW;
  }
  return total / (length - VARIETY_WINDOW + 1);
}

function sentenceShape(lengths: readonly number[]): { mean: number; spread: number } {
  if (lengths.length === 0) return { mean: 0, spread: 0 };
  let sum = 0;
  for (const length of lengths) sum += length;
  const mean = sum / lengths.length;
  let squares = 0;
  for (const length of lengths) squares += (length - mean) ** 2;
  return { mean, spread: Math.sqrt(squares / lengths.length) / mean };
}

/**
 * @param terms when given, receives bucket → the readable word or phrase that filled it,
 *   so that evidence can be shown as words rather than bucket numbers.
 */
export function extractFeatures(tokens: TokenizedText, hashBits: number, ngramOrder: 1 | 2, terms?: Map<number, string>, withMatches = false): DocumentFeatures {
  const words = readWords(tokens.words, tokens.wordHashes);
  const { ngrams, ...features } = readFeatures(tokens, words, hashBits, ngramOrder, terms, withMatches);
  return { ...features, ngrams: ngrams.toMap(), wordInfos: words.infos };
}

/** What the model reads of a text whose words were looked up already (words.ts); see extractFeatures. */
export function readFeatures(tokens: TokenizedText, textWords: TextWords, hashBits: number, ngramOrder: 1 | 2, terms?: Map<number, string>, withMatches = false): TextFeatures {
  const { words, punctuation } = tokens;
  const { infos } = textWords;
  const wordCount = words.length;
  const categoryCounts = new Float64Array(CATEGORY_NAMES.length);
  // A unigram per word and at most a bigram per word.
  const ngrams = new BucketCounts(ngramOrder === 2 ? 2 * wordCount : wordCount);
  let longWords = 0;

  let position = 0;
  for (const sentenceLength of tokens.sentenceLengths) {
    let previousHash = -1;
    for (let end = position + sentenceLength; position < end; position++) {
      const word = words[position] ?? '';
      const info = infos[position];
      if (info === undefined) continue;
      for (const category of info.categories) categoryCounts[category] = (categoryCounts[category] ?? 0) + 1;
      if (word.length >= LONG_WORD_LETTERS) longWords++;

      const unigram = bucketOf(info.hash, hashBits);
      ngrams.add(unigram);
      if (terms !== undefined && !terms.has(unigram)) terms.set(unigram, word);
      if (ngramOrder === 2 && previousHash >= 0) {
        const bigram = bucketOf(hashBigram(previousHash, info.hash), hashBits);
        ngrams.add(bigram);
        if (terms !== undefined && !terms.has(bigram)) terms.set(bigram, `${words[position - 1] ?? ''} ${word}`);
      }
      previousHash = info.hash;
    }
  }

  const shape = sentenceShape(tokens.sentenceLengths);
  const style: Record<(typeof STYLE_NAMES)[number], number> = {
    words_per_sentence: Math.log1p(shape.mean),
    sentence_length_spread: shape.spread,
    letters_per_word: wordCount > 0 ? tokens.letters / wordCount : 0,
    long_words: wordCount > 0 ? longWords / wordCount : 0,
    vocabulary_variety: movingTypeTokenRatio(textWords),
    comma: rate(punctuation.comma, wordCount),
    period: rate(punctuation.period, wordCount),
    exclamation: rate(punctuation.exclamation, wordCount),
    question: rate(punctuation.question, wordCount),
    colon: rate(punctuation.colon, wordCount),
    dash: rate(punctuation.dash, wordCount),
    quote: rate(punctuation.quote, wordCount),
    parenthesis: rate(punctuation.parenthesis, wordCount),
    ellipsis: rate(punctuation.ellipsis, wordCount),
    apostrophe: rate(punctuation.apostrophe, wordCount),
    numbers: rate(tokens.numbers, wordCount),
  };

  const dense = new Float64Array(DENSE_NAMES.length);
  categoryCounts.forEach((count, index) => {
    dense[index] = rate(count, wordCount);
  });
  STYLE_NAMES.forEach((name, index) => {
    dense[CATEGORY_NAMES.length + index] = style[name];
  });
  const signals = readSignals(tokens, withMatches, infos);
  signals.counts.forEach((count, index) => {
    dense[FIRST_SIGNAL + index] = rate(count, wordCount);
  });
  // What the text leads with, per 100 words of its opening (signals.ts LEAD_WORDS).
  signals.leadCounts.forEach((count, index) => {
    dense[FIRST_LEAD + index] = rate(count, Math.min(wordCount, LEAD_WORDS));
  });
  styleShares(signals.counts, dense, FIRST_SHARE);
  styleShares(signals.leadCounts, dense, FIRST_SHARE + STYLES.length);
  const features: TextFeatures = { dense, ngrams, wordCount };
  if (signals.matches !== undefined) features.signalMatches = signals.matches;
  return features;
}
