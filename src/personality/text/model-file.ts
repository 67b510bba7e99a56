import { TRAITS, type Trait } from '../types.ts';
import type { LengthPoint } from './standing.ts';

/**
 * The committed weights file, as JSON. Weights are stored "folded": the training-time
 * scaling, idf and decision threshold are already multiplied in, so inference is a dot
 * product and nothing else.
 */

export const MODEL_FORMAT = 'rapport-text-model';

export interface TraitWeightsFile {
  /** Added to the dot product; the result is > 0 exactly when the model predicts "high". */
  intercept: number;
  /**
   * 101 quantiles (0 %, 1 %, …, 100 %) of the out-of-fold decision values of the training
   * texts: the reference population a writer's standing is read against.
   */
  quantiles: number[];
  /**
   * The same for the training texts cut to a few shorter lengths (ascending words, all
   * below the typical full length): short texts are read against texts of their own
   * length (standing.ts, standingForLength). Absent in models before v2.
   */
  lengthQuantiles?: Array<{ words: number; quantiles: number[] }>;
  /** One weight per standardised dense feature, in `features.dense` order. */
  dense: number[];
  /** One weight per n-gram bucket, in `ngramBuckets` order. */
  ngrams: number[];
  /**
   * Weights whose sign was the same in every cross-validation fold's model: `dense` lists
   * dense indexes, `ngrams` rows of `ngramBuckets` (ascending, delta-encoded). Only these
   * are shown as evidence. Absent in models before v2 (then every weight may be shown).
   */
  stable?: { dense: number[]; ngrams: number[] };
}

export interface TraitMetricsFile {
  accuracy: number;
  accuracySd: number;
  auc: number;
  majorityBaseline: number;
}

export interface ModelFile {
  format: typeof MODEL_FORMAT;
  version: string;
  /*
   * No training timestamp: the file is a function of the corpus (named by its sha256) and the
   * settings below, so retraining on the same data writes the same bytes. Files from before
   * carry a `trainedAt` string, which is accepted and ignored.
   */
  corpus: { file: string; sha256: string; documents: number };
  features: { hashBits: number; ngramOrder: 1 | 2; lexiconVersion: number; dense: string[]; clip: number; minDocumentFrequency: number };
  training: { l2: number; denseWeight: number; ngramWeight: number; folds: number; seed: number };
  standardiser: { mean: number[]; sd: number[] };
  /** [words, factor]: how much of a full text's evidence a shorter text carries (standing.ts). */
  lengthCurve: LengthPoint[];
  /** Ascending bucket numbers, delta-encoded (each entry is the gap from the previous). */
  ngramBuckets: number[];
  /**
   * The word class (part of speech) of the word behind each n-gram row, as an index into
   * `labels`, -1 where none is named: evidence reads "organised (adjective)". Absent before v2.
   */
  wordClasses?: { labels: string[]; ngrams: number[] };
  traits: Partial<Record<Trait, TraitWeightsFile>>;
  metrics: Partial<Record<Trait, TraitMetricsFile>>;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNumberArray(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'number' && Number.isFinite(item));
}

function isLengthCurve(value: unknown): value is LengthPoint[] {
  return Array.isArray(value) && value.length > 0 && value.every((point) => isNumberArray(point) && point.length === 2);
}

function isAscending(values: readonly number[]): boolean {
  return values.every((value, i) => i === 0 || value >= (values[i - 1] ?? value));
}

function fail(problem: string): never {
  throw new Error(`text model file: ${problem}`);
}

function checkTraitWeights(value: unknown, trait: Trait, denseSize: number, buckets: number): TraitWeightsFile {
  if (!isObject(value)) fail(`traits.${trait} is not an object`);
  const { intercept, quantiles, dense, ngrams, lengthQuantiles } = value;
  if (typeof intercept !== 'number') fail(`traits.${trait}.intercept is not a number`);
  if (!isNumberArray(quantiles) || quantiles.length < 2 || !isAscending(quantiles)) fail(`traits.${trait}.quantiles must be ascending numbers (retrain a model from before scores were standings)`);
  if (!isNumberArray(dense) || dense.length !== denseSize) fail(`traits.${trait}.dense does not match the dense features`);
  if (!isNumberArray(ngrams) || ngrams.length !== buckets) fail(`traits.${trait}.ngrams does not match ngramBuckets`);
  const checked: TraitWeightsFile = { intercept, quantiles, dense, ngrams };
  if (lengthQuantiles !== undefined) checked.lengthQuantiles = checkLengthQuantiles(lengthQuantiles, trait);
  const { stable } = value;
  if (stable !== undefined) {
    if (!isObject(stable) || !isNumberArray(stable.dense) || !isNumberArray(stable.ngrams)) fail(`traits.${trait}.stable must hold dense and ngrams index lists`);
    checked.stable = { dense: stable.dense, ngrams: stable.ngrams };
  }
  return checked;
}

function checkLengthQuantiles(value: unknown, trait: Trait): Array<{ words: number; quantiles: number[] }> {
  if (!Array.isArray(value)) fail(`traits.${trait}.lengthQuantiles must be a list`);
  const levels = value.map((level: unknown) => {
    if (!isObject(level) || typeof level.words !== 'number' || !isNumberArray(level.quantiles) || level.quantiles.length < 2 || !isAscending(level.quantiles)) {
      fail(`traits.${trait}.lengthQuantiles must hold {words, ascending quantiles}`);
    }
    return { words: level.words, quantiles: level.quantiles };
  });
  if (!isAscending(levels.map((level) => level.words))) fail(`traits.${trait}.lengthQuantiles must be in ascending words`);
  return levels;
}

/** Checks the parsed JSON's shape, so a damaged or foreign file fails loudly at load. */
export function parseModelFile(value: unknown): ModelFile {
  if (!isObject(value) || value.format !== MODEL_FORMAT) fail(`format is not "${MODEL_FORMAT}"`);
  const { version, corpus, features, training, standardiser, lengthCurve, ngramBuckets, traits, metrics, wordClasses } = value;
  if (typeof version !== 'string') fail('version must be a string');
  if (!isObject(corpus) || typeof corpus.file !== 'string' || typeof corpus.sha256 !== 'string' || typeof corpus.documents !== 'number') {
    fail('corpus must name file, sha256 and documents');
  }
  if (!isObject(features) || !Array.isArray(features.dense) || !features.dense.every((name) => typeof name === 'string')) fail('features.dense must list names');
  const { hashBits, ngramOrder, lexiconVersion, clip, minDocumentFrequency } = features;
  if (typeof hashBits !== 'number' || hashBits < 8 || hashBits > 24) fail('features.hashBits must be 8..24');
  if (ngramOrder !== 1 && ngramOrder !== 2) fail('features.ngramOrder must be 1 or 2');
  if (typeof lexiconVersion !== 'number' || typeof clip !== 'number' || typeof minDocumentFrequency !== 'number') fail('features are incomplete');
  const denseNames: string[] = features.dense.filter((name): name is string => typeof name === 'string');
  if (!isObject(training)) fail('training is missing');
  const { l2, denseWeight, ngramWeight, folds, seed } = training;
  if (typeof l2 !== 'number' || typeof denseWeight !== 'number' || typeof ngramWeight !== 'number' || typeof folds !== 'number' || typeof seed !== 'number') {
    fail('training settings are incomplete');
  }
  if (!isObject(standardiser) || !isNumberArray(standardiser.mean) || !isNumberArray(standardiser.sd)) fail('standardiser must hold mean and sd');
  if (standardiser.mean.length !== denseNames.length || standardiser.sd.length !== denseNames.length) fail('standardiser does not match features.dense');
  if (!isLengthCurve(lengthCurve)) fail('lengthCurve must list [words, factor] points');
  if (!isNumberArray(ngramBuckets)) fail('ngramBuckets must be numbers');
  if (!isObject(traits)) fail('traits is missing');
  const checkedTraits: Partial<Record<Trait, TraitWeightsFile>> = {};
  for (const trait of TRAITS) {
    if (traits[trait] !== undefined) checkedTraits[trait] = checkTraitWeights(traits[trait], trait, denseNames.length, ngramBuckets.length);
  }
  const checkedMetrics: Partial<Record<Trait, TraitMetricsFile>> = {};
  if (isObject(metrics)) {
    for (const trait of TRAITS) {
      const entry = metrics[trait];
      if (isObject(entry) && typeof entry.accuracy === 'number' && typeof entry.auc === 'number') {
        const accuracySd = typeof entry.accuracySd === 'number' ? entry.accuracySd : 0;
        const majorityBaseline = typeof entry.majorityBaseline === 'number' ? entry.majorityBaseline : 0;
        checkedMetrics[trait] = { accuracy: entry.accuracy, accuracySd, auc: entry.auc, majorityBaseline };
      }
    }
  }
  let checkedClasses: ModelFile['wordClasses'];
  if (wordClasses !== undefined) {
    if (!isObject(wordClasses) || !Array.isArray(wordClasses.labels) || !wordClasses.labels.every((label) => typeof label === 'string') || !isNumberArray(wordClasses.ngrams) || wordClasses.ngrams.length !== ngramBuckets.length) {
      fail('wordClasses must hold labels and one class index per n-gram bucket');
    }
    checkedClasses = { labels: wordClasses.labels.filter((label): label is string => typeof label === 'string'), ngrams: wordClasses.ngrams };
  }
  return {
    format: MODEL_FORMAT,
    version,
    ...(checkedClasses !== undefined ? { wordClasses: checkedClasses } : {}),
    corpus: { file: corpus.file, sha256: corpus.sha256, documents: corpus.documents },
    features: { hashBits, ngramOrder, lexiconVersion, dense: denseNames, clip, minDocumentFrequency },
    training: { l2, denseWeight, ngramWeight, folds, seed },
    standardiser: { mean: standardiser.mean, sd: standardiser.sd },
    lengthCurve,
    ngramBuckets,
    traits: checkedTraits,
    metrics: checkedMetrics,
  };
}
