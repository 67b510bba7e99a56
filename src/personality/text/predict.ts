import { TRAITS, type EvidenceItem, type Trait } from '../types.ts';
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

export const EVIDENCE_PER_TRAIT = 5;

function roundTo4(value: number): number {
  return Number(value.toPrecision(4));
}

/**
 * Scores a tokenised text with every trait at once. With `evidence`, also ranks the
 * text's own words and phrases by how far they moved each trait's logit: a term's
 * n-gram weight times its value, plus, for a word in a word class, the change one more
 * occurrence makes to that class's standardised rate, times the class's weight.
 */
export function predict(model: TextModel, tokens: TokenizedText, evidence: boolean): Prediction {
  const terms = evidence ? new Map<number, string>() : undefined;
  const features = extractFeatures(tokens, model.hashBits, model.ngramOrder, terms);
  const logits = Float64Array.from(model.intercepts);

  const denseSize = model.denseMean.length;
  // Per class and trait: logit change caused by one more occurrence of a class word.
  const perOccurrence = evidence ? new Float64Array(CATEGORY_NAMES.length * TRAIT_COUNT) : undefined;
  for (let j = 0; j < denseSize; j++) {
    const z = ((features.dense[j] ?? 0) - (model.denseMean[j] ?? 0)) / (model.denseSd[j] ?? 1);
    const clipped = Math.max(-model.clip, Math.min(model.clip, z));
    for (let t = 0; t < TRAIT_COUNT; t++) logits[t] = (logits[t] ?? 0) + clipped * (model.denseWeights[j * TRAIT_COUNT + t] ?? 0);
    if (perOccurrence !== undefined && j < CATEGORY_NAMES.length && Math.abs(z) < model.clip) {
      // d/dcount of log(1 + 100·count/words) is (100/words) / (1 + 100·count/words).
      const slope = 100 / features.wordCount / Math.exp(features.dense[j] ?? 0) / (model.denseSd[j] ?? 1);
      for (let t = 0; t < TRAIT_COUNT; t++) perOccurrence[j * TRAIT_COUNT + t] = slope * (model.denseWeights[j * TRAIT_COUNT + t] ?? 0);
    }
  }

  let squares = 0;
  for (const count of features.ngrams.values()) squares += Math.log1p(count) ** 2;
  const norm = Math.sqrt(squares) || 1;
  const termContributions = terms !== undefined ? new Map<string, Float64Array>() : undefined;
  for (const [bucket, count] of features.ngrams) {
    const row = model.rowOfBucket[bucket] ?? -1;
    const value = Math.log1p(count) / norm;
    const term = terms?.get(bucket);
    const contribution = term !== undefined && termContributions !== undefined ? new Float64Array(TRAIT_COUNT) : undefined;
    if (row >= 0) {
      for (let t = 0; t < TRAIT_COUNT; t++) {
        const moved = value * (model.ngramWeights[row * TRAIT_COUNT + t] ?? 0);
        logits[t] = (logits[t] ?? 0) + moved;
        if (contribution !== undefined) contribution[t] = moved;
      }
    }
    if (contribution === undefined || term === undefined || termContributions === undefined) continue;
    if (perOccurrence !== undefined && !term.includes(' ')) {
      for (const category of lookupWord(term).categories) {
        for (let t = 0; t < TRAIT_COUNT; t++) contribution[t] = (contribution[t] ?? 0) + count * (perOccurrence[category * TRAIT_COUNT + t] ?? 0);
      }
    }
    termContributions.set(term, contribution);
  }

  const prediction: Prediction = { logits, wordCount: features.wordCount };
  if (termContributions !== undefined) prediction.evidence = rankEvidence(model, termContributions);
  return prediction;
}

function rankEvidence(model: TextModel, contributions: Map<string, Float64Array>): Record<Trait, EvidenceItem[]> {
  const topFor = (trait: Trait): EvidenceItem[] => {
    if (!model.trainedTraits.has(trait)) return [];
    const t = TRAITS.indexOf(trait);
    const ranked: EvidenceItem[] = [];
    for (const [term, values] of contributions) {
      const weight = values[t] ?? 0;
      if (weight !== 0) ranked.push({ term, weight });
    }
    ranked.sort((a, b) => Math.abs(b.weight) - Math.abs(a.weight) || a.term.localeCompare(b.term));
    return ranked.slice(0, EVIDENCE_PER_TRAIT).map(({ term, weight }) => ({ term, weight: roundTo4(weight) }));
  };
  return {
    extraversion: topFor('extraversion'),
    agreeableness: topFor('agreeableness'),
    conscientiousness: topFor('conscientiousness'),
    openness: topFor('openness'),
    neuroticism: topFor('neuroticism'),
  };
}
