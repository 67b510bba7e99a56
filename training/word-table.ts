import { DENSE_NAMES } from '../src/personality/text/features.ts';
import { encodeFloats, type WordTableFile } from '../src/personality/text/model-file.ts';
import type { Trait } from '../src/personality/types.ts';
import { blockScale, type FoldPreprocessor, type TrainingConfig } from './design.ts';
import type { LogisticModel } from './logistic.ts';
import { vectorWeightOfRank } from './prepare.ts';
import type { WordVectors } from './word-vectors.ts';

/**
 * Folds the word-vector block of a fitted model into one number per word, so the service needs
 * no vectors: the block is scale × Σ_d w_d (m_d − μ_d) / σ_d with m the weighted mean of the
 * text's word vectors, which is the weighted mean over its words of s = scale × Σ_d (w_d / σ_d)
 * v_d, minus a constant that joins the intercept.
 */
export interface FoldedVectors {
  /** Per word of the vocabulary (ascending order of `words`). */
  values: number[];
  /** Added to the intercept. */
  constant: number;
}

export function foldVectors(model: LogisticModel, preprocessor: FoldPreprocessor, config: TrainingConfig, vectors: WordVectors, words: readonly string[]): FoldedVectors {
  const first = DENSE_NAMES.length;
  const scale = blockScale(config, first);
  const perDimension = Float64Array.from({ length: vectors.dimensions }, (_, d) => ((model.weights[first + d] ?? 0) * scale) / (preprocessor.sd[first + d] || 1));
  let constant = 0;
  perDimension.forEach((w, d) => {
    constant -= w * (preprocessor.mean[first + d] ?? 0);
  });
  const values = words.map((word) => {
    const vector = vectors.vectors.get(word);
    if (vector === undefined) return 0;
    let s = 0;
    for (let d = 0; d < vector.length; d++) s += (perDimension[d] ?? 0) * (vector[d] ?? 0);
    return Number(s.toPrecision(4));
  });
  return { values, constant };
}

export function wordTableFile(vectors: WordVectors, traits: Partial<Record<Trait, { personal: number[]; professional?: number[] }>>): WordTableFile {
  const words = [...vectors.vectors.keys()].sort();
  const encoded: WordTableFile['traits'] = {};
  for (const [trait, entry] of Object.entries(traits) as Array<[Trait, { personal: number[]; professional?: number[] }]>) {
    encoded[trait] = entry.professional !== undefined ? { personal: encodeFloats(entry.personal), professional: encodeFloats(entry.professional) } : { personal: encodeFloats(entry.personal) };
  }
  return { words: words.join(' '), weight: encodeFloats(words.map((word) => vectorWeightOfRank(vectors.ranks.get(word) ?? 0))), traits: encoded };
}

export type { Trait };
