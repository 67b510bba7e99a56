import { DENSE_NAMES, FIRST_SIGNAL, type DocumentFeatures } from '../src/personality/text/features.ts';
import type { SparseMatrix } from './logistic.ts';

/**
 * From extracted features to the design matrix a fold trains on. Everything learnt from
 * data (standardiser, which n-grams are frequent enough, their idf) is fitted on the
 * training documents only, so cross-validation never peeks at the held-out fold.
 */

export interface TrainingConfig {
  hashBits: number;
  /** An n-gram must occur in at least this many training documents to get a weight. */
  minDocumentFrequency: number;
  /** Scale of the standardised word-class and style block; 0 leaves it out. */
  denseWeight: number;
  /**
   * Scale of the behavioural signal block (the dense measures from FIRST_SIGNAL on); 0 leaves
   * it out. Models before v3 had no such block.
   */
  signalWeight: number;
  /** Scale of the word-vector block (dense measures after the named ones); 0 leaves it out. */
  vectorWeight: number;
  /** Scale of the tf-idf n-gram block; 0 leaves it out. */
  ngramWeight: number;
  l2: number;
  /** Standardised values are clipped to ±clip so one odd text cannot dominate. */
  clip: number;
}

export interface PreparedDocument {
  dense: Float64Array;
  /** Sorted n-gram buckets present in the document. */
  buckets: Int32Array;
  /** log(1 + count) per bucket, divided by the document's L2 norm of those values. */
  termWeights: Float64Array;
  /** Words of the text, for length-aware calibration. */
  wordCount: number;
}

export interface FoldPreprocessor {
  mean: Float64Array;
  sd: Float64Array;
  /** Kept buckets, sorted; column of keptBuckets[k] is dense length + k. */
  keptBuckets: Int32Array;
  idf: Float64Array;
  columnOfBucket: Int32Array;
}

/**
 * The document norm is taken over all its n-grams, not only those the model keeps, so
 * pruning a weight from the shipped model never changes any other feature's value.
 */
export function prepareDocument(features: DocumentFeatures): PreparedDocument {
  const buckets = Int32Array.from(features.ngrams.keys()).sort();
  const termWeights = new Float64Array(buckets.length);
  let squares = 0;
  buckets.forEach((bucket, k) => {
    const value = Math.log1p(features.ngrams.get(bucket) ?? 0);
    termWeights[k] = value;
    squares += value * value;
  });
  const norm = Math.sqrt(squares) || 1;
  for (let k = 0; k < termWeights.length; k++) termWeights[k] = (termWeights[k] ?? 0) / norm;
  return { dense: features.dense, buckets, termWeights, wordCount: features.wordCount };
}

/**
 * @param denseStats the dense standardiser to use instead of fitting one on `indices`: a model
 *   file has one standardiser for every trait, so the shipped fits share it.
 */
export function fitPreprocessor(docs: readonly PreparedDocument[], indices: readonly number[], config: TrainingConfig, denseStats?: { mean: Float64Array; sd: Float64Array }): FoldPreprocessor {
  const denseSize = docs[0]?.dense.length ?? 0;
  const mean = new Float64Array(denseSize);
  const sd = new Float64Array(denseSize);
  for (const index of indices) {
    const dense = docs[index]?.dense;
    if (dense === undefined) continue;
    for (let j = 0; j < denseSize; j++) mean[j] = (mean[j] ?? 0) + (dense[j] ?? 0) / indices.length;
  }
  for (const index of indices) {
    const dense = docs[index]?.dense;
    if (dense === undefined) continue;
    for (let j = 0; j < denseSize; j++) sd[j] = (sd[j] ?? 0) + ((dense[j] ?? 0) - (mean[j] ?? 0)) ** 2 / indices.length;
  }
  // A constant feature gets sd 1, so it standardises to 0 instead of dividing by zero.
  for (let j = 0; j < denseSize; j++) sd[j] = Math.sqrt(sd[j] ?? 0) || 1;
  if (denseStats !== undefined) {
    mean.set(denseStats.mean);
    sd.set(denseStats.sd);
  }

  const documentFrequency = new Int32Array(1 << config.hashBits);
  for (const index of indices) {
    for (const bucket of docs[index]?.buckets ?? []) documentFrequency[bucket] = (documentFrequency[bucket] ?? 0) + 1;
  }
  const kept: number[] = [];
  const keepNgrams = config.ngramWeight > 0;
  for (let bucket = 0; keepNgrams && bucket < documentFrequency.length; bucket++) {
    if ((documentFrequency[bucket] ?? 0) >= config.minDocumentFrequency) kept.push(bucket);
  }
  const keptBuckets = Int32Array.from(kept);
  const columnOfBucket = new Int32Array(1 << config.hashBits).fill(-1);
  const idf = new Float64Array(keptBuckets.length);
  keptBuckets.forEach((bucket, k) => {
    columnOfBucket[bucket] = denseSize + k;
    // Smoothed inverse document frequency: rare words count more, never negatively.
    idf[k] = Math.log((1 + indices.length) / (1 + (documentFrequency[bucket] ?? 0))) + 1;
  });
  return { mean, sd, keptBuckets, idf, columnOfBucket };
}

/** The scale of dense measure j: its block's weight (word classes and style, or signals). */
export function blockScale(config: TrainingConfig, j: number): number {
  if (j >= DENSE_NAMES.length) return config.vectorWeight;
  return j >= FIRST_SIGNAL ? config.signalWeight : config.denseWeight;
}

export function buildMatrix(
  docs: readonly PreparedDocument[],
  indices: readonly number[],
  preprocessor: FoldPreprocessor,
  config: TrainingConfig,
): SparseMatrix {
  const denseSize = preprocessor.mean.length;
  const useDense = config.denseWeight > 0 || config.signalWeight > 0 || config.vectorWeight > 0;
  const useNgrams = config.ngramWeight > 0;
  const rowStart = new Int32Array(indices.length + 1);
  let capacity = 0;
  for (const index of indices) capacity += (useDense ? denseSize : 0) + (useNgrams ? (docs[index]?.buckets.length ?? 0) : 0);
  const columnIndex = new Int32Array(capacity);
  const values = new Float64Array(capacity);
  let next = 0;
  indices.forEach((index, row) => {
    const doc = docs[index];
    if (doc !== undefined && useDense) {
      for (let j = 0; j < denseSize; j++) {
        const z = ((doc.dense[j] ?? 0) - (preprocessor.mean[j] ?? 0)) / (preprocessor.sd[j] ?? 1);
        columnIndex[next] = j;
        // The word-vector block is not clipped: it stays linear in the words, so it folds into a word table.
        values[next++] = (j >= DENSE_NAMES.length ? z : Math.max(-config.clip, Math.min(config.clip, z))) * blockScale(config, j);
      }
    }
    if (doc !== undefined && useNgrams) {
      doc.buckets.forEach((bucket, k) => {
        const column = preprocessor.columnOfBucket[bucket] ?? -1;
        if (column < 0) return;
        columnIndex[next] = column;
        values[next++] = (doc.termWeights[k] ?? 0) * (preprocessor.idf[column - denseSize] ?? 0) * config.ngramWeight;
      });
    }
    rowStart[row + 1] = next;
  });
  return {
    rows: indices.length,
    columns: denseSize + preprocessor.keptBuckets.length,
    rowStart,
    columnIndex: columnIndex.slice(0, next),
    values: values.slice(0, next),
  };
}
