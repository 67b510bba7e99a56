import { extractFeatures } from '../src/personality/text/features.ts';
import { cleanLabelledText } from '../src/personality/text/labelled.ts';
import { stripMarkup } from '../src/personality/text/markup.ts';
import { tokenize, type TokenizedText } from '../src/personality/text/tokenizer.ts';
import { prepareDocument, type PreparedDocument, type TrainingConfig } from './design.ts';
import type { WordVectors } from './word-vectors.ts';

/**
 * Texts as the service reads them (labels and boilerplate set aside, markup stripped: the same
 * calls as src/personality/text/index.ts), turned into what training uses: the named dense
 * measures, the n-grams, and, with word vectors, the weighted mean of the vectors of the words
 * (names left out) appended to the dense measures. predict.ts computes that last block from the
 * model's word table, which training/word-table.ts folds from the weights learnt here.
 */

export interface ReadText {
  tokens: TokenizedText;
  document: PreparedDocument;
}

/** The weight of a word in the mean of its text's vectors: rarer words (by the vectors' own frequency rank) count more. */
export function vectorWeightOfRank(rank: number): number {
  return Math.min(8, Math.max(1, Math.log(1 + rank / 50)));
}

export function meanVector(tokens: TokenizedText, vectors: WordVectors): Float64Array {
  const sum = new Float64Array(vectors.dimensions);
  let total = 0;
  tokens.words.forEach((word, i) => {
    if (tokens.capitalized[i] === 1) return;
    const vector = vectors.vectors.get(word);
    const rank = vectors.ranks.get(word);
    if (vector === undefined || rank === undefined) return;
    const weight = vectorWeightOfRank(rank);
    total += weight;
    for (let d = 0; d < sum.length; d++) sum[d] = (sum[d] ?? 0) + weight * (vector[d] ?? 0);
  });
  if (total > 0) for (let d = 0; d < sum.length; d++) sum[d] = (sum[d] ?? 0) / total;
  return sum;
}

export function tokensOf(text: string): TokenizedText {
  return tokenize(stripMarkup(cleanLabelledText(text)));
}

export function prepareTexts(texts: readonly string[], config: TrainingConfig, ngramOrder: 1 | 2, vectors: WordVectors | null): PreparedDocument[] {
  return texts.map((text) => {
    const tokens = tokensOf(text);
    const document = prepareDocument(extractFeatures(tokens, config.hashBits, ngramOrder));
    if (vectors === null) return document;
    return { ...document, dense: Float64Array.from([...document.dense, ...meanVector(tokens, vectors)]) };
  });
}
