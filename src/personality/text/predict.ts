import { FIRST_SIGNAL, readFeatures } from './features.ts';
import type { WordInfo } from './lexicon.ts';
import { OUTPUT_COUNT, WORD_ROW, type TextModel, type WordTable } from './model.ts';
import { LEAD_WORDS, SIGNAL_NAMES, type SignalMatch } from './signals.ts';
import type { TokenizedText } from './tokenizer.ts';
import { readWords, type TextWords } from './words.ts';

/** What one phrase or word of the text did to each output's decision value. */
export interface Contribution {
  /** A signal's index (SIGNAL_NAMES), or -1 for a word. */
  signal: number;
  /** The word, for a word; the phrase is read from the text by its offsets. */
  word?: string;
  /** Offsets in the tokenized text: [start, end). */
  start: number;
  end: number;
  /** Per output (OUTPUTS order). */
  values: Float64Array;
  /** Per output: 1 when every cross-validation fold gave this item's weight the same sign. */
  stable: Uint8Array;
}

export interface Prediction {
  /** Per output in OUTPUTS order: > 0 when the model predicts "above the median". */
  logits: Float64Array;
  wordCount: number;
  contributions?: Contribution[];
}

const SIGNAL_COUNT = SIGNAL_NAMES.length;
const FIRST_LEAD = FIRST_SIGNAL + SIGNAL_COUNT;

/**
 * log1p of the counts most n-grams have (a text repeats few of its words more than a few times),
 * computed once: the same doubles Math.log1p gives, without its cost per bucket and text.
 */
const LOG1P_OF_SMALL_COUNTS = Float64Array.from({ length: 64 }, (_, count) => Math.log1p(count));

function rate(count: number, words: number): number {
  return Math.log1p((100 * count) / Math.max(words, 1));
}

/**
 * Scores a tokenised text for every output at once. With `withContributions`, also says what
 * each signal phrase and each word moved: a signal's presence (its rate's distance from none,
 * split among its matches, in the whole text and in its opening), a word's n-gram weight and
 * the meaning its vector carries (model v3's word table).
 */
export function predict(model: TextModel, tokens: TokenizedText, withContributions: boolean, words: TextWords = readWords(tokens.words, tokens.wordHashes)): Prediction {
  const terms = withContributions ? new Map<number, string>() : undefined;
  const features = readFeatures(tokens, words, model.hashBits, model.ngramOrder, terms, withContributions);
  const logits = Float64Array.from(model.intercepts);

  const denseSize = model.denseMean.length;
  for (let j = 0; j < denseSize; j++) {
    const z = ((features.dense[j] ?? 0) - (model.denseMean[j] ?? 0)) / (model.denseSd[j] || 1);
    const clipped = Math.max(-model.clip, Math.min(model.clip, z));
    if (clipped === 0) continue;
    for (let t = 0; t < OUTPUT_COUNT; t++) logits[t] = (logits[t] ?? 0) + clipped * (model.denseWeights[j * OUTPUT_COUNT + t] ?? 0);
  }

  const { ngrams } = features;
  // Each count's log once; the sums run in the order the buckets were first counted, as before.
  const logCounts = new Float64Array(ngrams.size);
  let squares = 0;
  for (let i = 0; i < ngrams.size; i++) {
    const count = ngrams.counts[i] ?? 0;
    const logCount = count < LOG1P_OF_SMALL_COUNTS.length ? (LOG1P_OF_SMALL_COUNTS[count] ?? 0) : Math.log1p(count);
    logCounts[i] = logCount;
    squares += logCount ** 2;
  }
  const norm = Math.sqrt(squares) || 1;
  const wordValues = withContributions ? new Map<string, { values: Float64Array; row: number }>() : undefined;
  for (let i = 0; i < ngrams.size; i++) {
    const bucket = ngrams.buckets[i] ?? 0;
    const row = model.rowOfBucket.rowOf(bucket);
    if (row < 0) continue;
    const value = (logCounts[i] ?? 0) / norm;
    const term = terms?.get(bucket);
    const moved = term !== undefined ? new Float64Array(OUTPUT_COUNT) : undefined;
    for (let t = 0; t < OUTPUT_COUNT; t++) {
      const step = value * (model.ngramWeights[row * OUTPUT_COUNT + t] ?? 0);
      logits[t] = (logits[t] ?? 0) + step;
      if (moved !== undefined) moved[t] = step;
    }
    if (term !== undefined && moved !== undefined) wordValues?.set(term, { values: moved, row });
  }

  addWordMeanings(model, tokens, words.infos, logits, wordValues);

  const prediction: Prediction = { logits, wordCount: features.wordCount };
  if (withContributions && wordValues !== undefined) {
    prediction.contributions = collectContributions(model, tokens, features.signalMatches ?? [], features.wordCount, wordValues);
  }
  return prediction;
}

/** A word's row in the word table (-1: not there), remembered with the word's lexicon entry. */
function tableRowOf(table: WordTable, info: WordInfo | undefined, word: string): number {
  if (info === undefined) return table.index.get(word) ?? -1;
  if (info.table !== table || info.tableRow === undefined) {
    info.table = table;
    info.tableRow = table.index.get(word) ?? -1;
  }
  return info.tableRow;
}

/**
 * The word table's term: the weighted mean, over the text's words found in the table (names
 * left out), of their numbers per output. A word's share goes to `wordValues` for evidence.
 */
function addWordMeanings(
  model: TextModel,
  tokens: TokenizedText,
  infos: readonly WordInfo[],
  logits: Float64Array,
  wordValues: Map<string, { values: Float64Array; row: number }> | undefined,
): void {
  const table = model.wordTable;
  if (table === null) return;
  const sums = new Float64Array(OUTPUT_COUNT);
  let total = 0;
  const seen = wordValues !== undefined ? new Map<string, { index: number; weight: number }>() : undefined;
  const { words, capitalized } = tokens;
  for (let i = 0; i < words.length; i++) {
    if (capitalized[i] === 1) continue;
    const word = words[i] ?? '';
    const index = tableRowOf(table, infos[i], word);
    if (index < 0) continue;
    const row = index * WORD_ROW;
    const weight = table.rows[row] ?? 0;
    total += weight;
    for (let t = 0; t < OUTPUT_COUNT; t++) sums[t] = (sums[t] ?? 0) + weight * (table.rows[row + 1 + t] ?? 0);
    if (seen !== undefined) seen.set(word, { index, weight: (seen.get(word)?.weight ?? 0) + weight });
  }
  if (total <= 0) return;
  for (let t = 0; t < OUTPUT_COUNT; t++) logits[t] = (logits[t] ?? 0) + (sums[t] ?? 0) / total;
  if (seen === undefined || wordValues === undefined) return;
  for (const [word, { index, weight }] of seen) {
    const entry = wordValues.get(word) ?? { values: new Float64Array(OUTPUT_COUNT), row: -1 };
    for (let t = 0; t < OUTPUT_COUNT; t++) entry.values[t] = (entry.values[t] ?? 0) + (weight * (table.rows[index * WORD_ROW + 1 + t] ?? 0)) / total;
    wordValues.set(word, entry);
  }
}

function collectContributions(
  model: TextModel,
  tokens: TokenizedText,
  matches: readonly SignalMatch[],
  wordCount: number,
  wordValues: ReadonlyMap<string, { values: Float64Array; row: number }>,
): Contribution[] {
  const contributions: Contribution[] = [];
  const perSignal = new Int32Array(SIGNAL_COUNT);
  const leadPerSignal = new Int32Array(SIGNAL_COUNT);
  const leadEnd = tokens.wordStarts[Math.min(LEAD_WORDS, tokens.words.length)] ?? Number.POSITIVE_INFINITY;
  for (const match of matches) {
    perSignal[match.signal] = (perSignal[match.signal] ?? 0) + 1;
    if (match.start < leadEnd) leadPerSignal[match.signal] = (leadPerSignal[match.signal] ?? 0) + 1;
  }
  const leadWords = Math.min(wordCount, LEAD_WORDS);
  // A signal's presence moved each output by (its rate − no rate) / sd × weight, shared by its matches.
  const presence = (column: number, count: number, words: number, output: number): number =>
    (rate(count, words) / (model.denseSd[column] || 1)) * (model.denseWeights[column * OUTPUT_COUNT + output] ?? 0);
  for (const match of matches) {
    const values = new Float64Array(OUTPUT_COUNT);
    const stable = new Uint8Array(OUTPUT_COUNT);
    const count = perSignal[match.signal] ?? 1;
    const inLead = match.start < leadEnd;
    for (let t = 0; t < OUTPUT_COUNT; t++) {
      let value = presence(FIRST_SIGNAL + match.signal, count, wordCount, t) / count;
      const leadCount = leadPerSignal[match.signal] ?? 0;
      if (inLead && leadCount > 0) value += presence(FIRST_LEAD + match.signal, leadCount, leadWords, t) / leadCount;
      values[t] = value;
      stable[t] = model.stable[t] === null || model.stable[t]?.dense[FIRST_SIGNAL + match.signal] === 1 ? 1 : 0;
    }
    contributions.push({ signal: match.signal, start: match.start, end: match.end, values, stable });
  }
  const firstAt = new Map<string, number>();
  tokens.words.forEach((word, i) => {
    if (!firstAt.has(word) && tokens.capitalized[i] !== 1) firstAt.set(word, i);
  });
  for (const [word, { values, row }] of wordValues) {
    const at = firstAt.get(word);
    if (at === undefined) continue;
    const start = tokens.wordStarts[at] ?? 0;
    const stable = new Uint8Array(OUTPUT_COUNT);
    for (let t = 0; t < OUTPUT_COUNT; t++) {
      const record = model.stable[t];
      // A word with no n-gram weight moved its outputs by its meaning alone, which no fold decides.
      stable[t] = row < 0 || record === null || record === undefined || record.ngramRows[row] === 1 ? 1 : 0;
    }
    contributions.push({ signal: -1, word, start, end: start + word.length, values, stable });
  }
  return contributions;
}
