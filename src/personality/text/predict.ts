import type { EvidenceItem, Trait } from '../types.ts';
import { rankEvidence } from './evidence.ts';
import { extractFeatures } from './features.ts';
import { CATEGORY_NAMES, lookupWord } from './lexicon.ts';
import { TRAIT_COUNT, type TextModel } from './model.ts';
import type { TokenizedText } from './tokenizer.ts';

export interface Prediction {
  /** Per trait in TRAITS order: > 0 when the model predicts "above the median". */
  logits: Float64Array;
  wordCount: number;
  evidence?: Record<Trait, EvidenceItem[]>;
}

/**
 * Scores a tokenised text with every trait at once. With `evidence`, also collects what
 * evidence.ts ranks: each word's n-gram contribution to each trait, and each word
 * class's standardised rate.
 */
export function predict(model: TextModel, tokens: TokenizedText, evidence: boolean): Prediction {
  const terms = evidence ? new Map<number, string>() : undefined;
  const features = extractFeatures(tokens, model.hashBits, model.ngramOrder, terms);
  const logits = Float64Array.from(model.intercepts);

  const denseSize = model.denseMean.length;
  const classRates = new Float64Array(CATEGORY_NAMES.length);
  for (let j = 0; j < denseSize; j++) {
    const z = ((features.dense[j] ?? 0) - (model.denseMean[j] ?? 0)) / (model.denseSd[j] ?? 1);
    const clipped = Math.max(-model.clip, Math.min(model.clip, z));
    if (j < classRates.length) classRates[j] = clipped;
    for (let t = 0; t < TRAIT_COUNT; t++) logits[t] = (logits[t] ?? 0) + clipped * (model.denseWeights[j * TRAIT_COUNT + t] ?? 0);
  }

  let squares = 0;
  for (const count of features.ngrams.values()) squares += Math.log1p(count) ** 2;
  const norm = Math.sqrt(squares) || 1;
  const contributions = new Map<string, Float64Array>();
  const counts = new Map<string, number>();
  const rows = new Map<string, number>();
  for (const [bucket, count] of features.ngrams) {
    const row = model.rowOfBucket[bucket] ?? -1;
    const term = terms?.get(bucket);
    if (term !== undefined && !term.includes(' ')) counts.set(term, count);
    if (row < 0) continue;
    const value = Math.log1p(count) / norm;
    const contribution = term !== undefined ? new Float64Array(TRAIT_COUNT) : undefined;
    for (let t = 0; t < TRAIT_COUNT; t++) {
      const moved = value * (model.ngramWeights[row * TRAIT_COUNT + t] ?? 0);
      logits[t] = (logits[t] ?? 0) + moved;
      if (contribution !== undefined) contribution[t] = moved;
    }
    if (term !== undefined && contribution !== undefined) {
      contributions.set(term, contribution);
      rows.set(term, row);
    }
  }

  const prediction: Prediction = { logits, wordCount: features.wordCount };
  if (evidence) {
    prediction.evidence = rankEvidence(model, { terms: contributions, rows, counts, classesOf: (word) => lookupWord(word).categories, classRates });
  }
  return prediction;
}
