import { TRAITS, type Trait } from '../types.ts';
import { GENRE_FEATURES, GENRES, type Genre, type GenreModel } from './genre.ts';
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
  /**
   * Model v3, extraversion and agreeableness: the weights professional writing is read with
   * (the same features, learnt from the essays and the professional corpus together with a
   * copy of each feature per domain; training/joint.ts). Same layout as the fields above.
   */
  professional?: { intercept: number; dense: number[]; ngrams: number[]; stable?: { dense: number[]; ngrams: number[] } };
  /**
   * Model v3: per kind of professional writing, 21 quantiles (0 %, 5 %, …, 100 %) of the
   * decision values of the professional corpus's texts of that kind (out of fold where they
   * were trained on): a text of that kind is read against them (genre norms).
   */
  norms?: Partial<Record<Genre, number[]>>;
}

/**
 * Model v3: what the word vectors the model was trained with make of each word, folded into
 * one number per output: a text's word-meaning term is the weighted mean of its words' numbers
 * (names, written with a capital inside a sentence, left out). Tens of thousands of numbers, so
 * they are stored as base64 of little-endian 32-bit floats (parsing them as JSON numbers took
 * most of a second); `words` is the words, ascending, joined by single spaces.
 */
export interface WordTableFile {
  words: string;
  /** Per word: its weight in the mean (rarer words count more). */
  weight: string;
  /** Per trait and domain: one number per word. */
  traits: Partial<Record<Trait, { personal: string; professional?: string }>>;
}

/** Base64 of little-endian float32 → numbers. */
export function decodeFloats(encoded: string): Float32Array {
  const bytes = Buffer.from(encoded, 'base64');
  const values = new Float32Array(bytes.length >> 2);
  for (let i = 0; i < values.length; i++) values[i] = bytes.readFloatLE(i * 4);
  return values;
}

export function encodeFloats(values: ArrayLike<number>): string {
  const bytes = Buffer.alloc(values.length * 4);
  for (let i = 0; i < values.length; i++) bytes.writeFloatLE(values[i] ?? 0, i * 4);
  return bytes.toString('base64');
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
  training: {
    l2: number;
    denseWeight: number;
    ngramWeight: number;
    folds: number;
    seed: number;
    /** Model v3: the signal and word-vector blocks' scales and the joint training's settings (training/joint.ts). */
    signalWeight?: number;
    vectorWeight?: number;
    professionalWeight?: number;
    domainScale?: number;
    labelStrength?: number;
  };
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
  /** Model v3: the professional corpus the circle traits were also trained on (its training split). */
  professional?: { file: string; sha256: string; documents: number };
  /** Model v3: signal lists' version (signal-data.ts SIGNALS_VERSION). */
  signalsVersion?: number;
  /** Model v3: the kind-of-writing detector (genre.ts). */
  genres?: GenreModel;
  wordTable?: WordTableFile;
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
  const { stable, professional, norms } = value;
  if (stable !== undefined) checked.stable = checkStable(stable, `traits.${trait}.stable`);
  if (professional !== undefined) {
    if (!isObject(professional) || typeof professional.intercept !== 'number') fail(`traits.${trait}.professional must hold an intercept`);
    if (!isNumberArray(professional.dense) || professional.dense.length !== denseSize) fail(`traits.${trait}.professional.dense does not match the dense features`);
    if (!isNumberArray(professional.ngrams) || professional.ngrams.length !== buckets) fail(`traits.${trait}.professional.ngrams does not match ngramBuckets`);
    checked.professional = { intercept: professional.intercept, dense: professional.dense, ngrams: professional.ngrams };
    if (professional.stable !== undefined) checked.professional.stable = checkStable(professional.stable, `traits.${trait}.professional.stable`);
  }
  if (norms !== undefined) {
    if (!isObject(norms)) fail(`traits.${trait}.norms must map kinds of writing to quantiles`);
    checked.norms = {};
    for (const genre of GENRES) {
      const quantiles = norms[genre];
      if (quantiles === undefined) continue;
      if (!isNumberArray(quantiles) || quantiles.length < 2 || !isAscending(quantiles)) fail(`traits.${trait}.norms.${genre} must be ascending numbers`);
      checked.norms[genre] = quantiles;
    }
  }
  return checked;
}

function checkStable(value: unknown, where: string): { dense: number[]; ngrams: number[] } {
  if (!isObject(value) || !isNumberArray(value.dense) || !isNumberArray(value.ngrams)) fail(`${where} must hold dense and ngrams index lists`);
  return { dense: value.dense, ngrams: value.ngrams };
}

function checkGenres(value: unknown): GenreModel {
  if (!isObject(value) || !isNumberArray(value.mean) || !isNumberArray(value.sd) || !Array.isArray(value.weights)) fail('genres must hold mean, sd and weights');
  const size = GENRE_FEATURES.length;
  if (value.mean.length !== size || value.sd.length !== size) fail(`genres.mean and genres.sd must have ${size} entries`);
  const weights = value.weights.map((row: unknown) => {
    if (!isNumberArray(row) || row.length !== size + 1) fail(`genres.weights must hold ${size + 1} numbers per kind of writing`);
    return row;
  });
  if (weights.length !== GENRES.length) fail(`genres.weights must hold one row per kind of writing (${GENRES.join(', ')})`);
  return { mean: value.mean, sd: value.sd, weights };
}

function floatCount(value: unknown): number {
  return typeof value === 'string' ? Math.floor((Buffer.byteLength(value, 'base64') * 1) / 4) : -1;
}

function checkWordTable(value: unknown): WordTableFile {
  if (!isObject(value) || typeof value.words !== 'string' || typeof value.weight !== 'string') fail('wordTable must hold words and their weights');
  const count = value.words === '' ? 0 : value.words.split(' ').length;
  if (floatCount(value.weight) !== count) fail('wordTable.weight must have one number per word');
  if (!isObject(value.traits)) fail('wordTable.traits is missing');
  const traits: WordTableFile['traits'] = {};
  for (const trait of TRAITS) {
    const entry = value.traits[trait];
    if (entry === undefined) continue;
    if (!isObject(entry) || typeof entry.personal !== 'string' || floatCount(entry.personal) !== count) fail(`wordTable.traits.${trait}.personal must have one number per word`);
    const checked: { personal: string; professional?: string } = { personal: entry.personal };
    if (entry.professional !== undefined) {
      if (typeof entry.professional !== 'string' || floatCount(entry.professional) !== count) fail(`wordTable.traits.${trait}.professional must have one number per word`);
      checked.professional = entry.professional;
    }
    traits[trait] = checked;
  }
  return { words: value.words, weight: value.weight, traits };
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
  const { version, corpus, features, training, standardiser, lengthCurve, ngramBuckets, traits, metrics, wordClasses, professional, signalsVersion, genres, wordTable } = value;
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
  const extras: Pick<ModelFile, 'professional' | 'signalsVersion' | 'genres' | 'wordTable'> = {};
  if (professional !== undefined) {
    if (!isObject(professional) || typeof professional.file !== 'string' || typeof professional.sha256 !== 'string' || typeof professional.documents !== 'number') {
      fail('professional must name file, sha256 and documents');
    }
    extras.professional = { file: professional.file, sha256: professional.sha256, documents: professional.documents };
  }
  if (signalsVersion !== undefined) {
    if (typeof signalsVersion !== 'number') fail('signalsVersion must be a number');
    extras.signalsVersion = signalsVersion;
  }
  if (genres !== undefined) extras.genres = checkGenres(genres);
  if (wordTable !== undefined) extras.wordTable = checkWordTable(wordTable);
  return {
    format: MODEL_FORMAT,
    version,
    ...extras,
    ...(checkedClasses !== undefined ? { wordClasses: checkedClasses } : {}),
    corpus: { file: corpus.file, sha256: corpus.sha256, documents: corpus.documents },
    features: { hashBits, ngramOrder, lexiconVersion, dense: denseNames, clip, minDocumentFrequency },
    training: { ...training, l2, denseWeight, ngramWeight, folds, seed },
    standardiser: { mean: standardiser.mean, sd: standardiser.sd },
    lengthCurve,
    ngramBuckets,
    traits: checkedTraits,
    metrics: checkedMetrics,
  };
}
