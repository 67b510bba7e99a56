import { DENSE_NAMES } from '../src/personality/text/features.ts';
import { genreFeatures, type Genre } from '../src/personality/text/genre.ts';
import { LEXICON_VERSION } from '../src/personality/text/lexicon-data.ts';
import { MODEL_FORMAT, type ModelFile, type TraitMetricsFile, type TraitWeightsFile } from '../src/personality/text/model-file.ts';
import { SIGNALS_VERSION } from '../src/personality/text/signal-data.ts';
import { lengthCurve } from '../src/personality/text/standing.ts';
import type { Trait } from '../src/personality/types.ts';
import { calibrate, EXCERPT_LENGTHS } from './calibration.ts';
import { labelsFor, type LabelledCorpus } from './corpus.ts';
import { crossValidate } from './cross-validate.ts';
import { blockScale, buildMatrix, fitPreprocessor, type FoldPreprocessor, type PreparedDocument, type TrainingConfig } from './design.ts';
import { trainGenreModel } from './genre-model.ts';
import { CIRCLE_TRAITS, crossValidateJoint, decisionValues, fitJoint, type CircleTrait, type JointData, type JointSettings } from './joint.ts';
import { fitLogistic, linearScores, priorMatchingThreshold, type LogisticModel } from './logistic.ts';
import { majorityBaseline, meanAndSd, rocAuc } from './metrics.ts';
import { genreNorms } from './norms.ts';
import { prepareTexts, tokensOf } from './prepare.ts';
import type { ProfessionalText } from './professional.ts';
import { firstWords } from './stability.ts';
import { foldSigns, isStable, type FoldSigns } from './stable-terms.ts';
import { foldVectors, wordTableFile } from './word-table.ts';
import type { WordVectors } from './word-vectors.ts';

/**
 * The settings `npm run train` ships (training/EXPERIMENTS.md has the rounds that chose them):
 * unigrams in 3+ documents, the word-class/style and signal blocks scaled to 0.1 so they share
 * one penalty with the n-grams, the word-vector block at 0.1 (extraversion and agreeableness
 * only), and the joint training of those two on the essays and the professional corpus with
 * each professional text counting three essays and one copy of every feature per domain.
 */
export const DEFAULT_CONFIG: TrainingConfig = { hashBits: 20, minDocumentFrequency: 3, denseWeight: 0.1, signalWeight: 0.1, vectorWeight: 0.1, ngramWeight: 1, l2: 0.01, clip: 5 };
export const DEFAULT_JOINT: Omit<JointSettings, 'config'> = { professionalWeight: 3, domainScale: 1, labelStrength: 0.9 };
export const DEFAULT_NGRAM_ORDER: 1 | 2 = 1;
/** The most frequent words of the vectors' vocabulary the word table keeps. */
export const VOCABULARY_SIZE = 50_000;

/**
 * A word is shown as evidence only if one training text in forty uses it: a rarer word can keep
 * its sign in every fold because the same few texts carry it each time.
 */
const EVIDENCE_MIN_SHARE = 0.025;
/** Weights below this cannot move a logit by a thousandth; they are left out of the file. */
const PRUNE_BELOW = 1e-5;

export interface TrainInputs {
  essays: LabelledCorpus;
  /** The professional corpus's training split; null trains on the essays alone (as models before v3). */
  professional: { texts: readonly ProfessionalText[]; file: string; sha256: string } | null;
  /** Word vectors of the vocabulary (training/word-vectors.ts); null leaves the word-meaning block out. */
  vectors: WordVectors | null;
}

export interface TrainOptions {
  config: TrainingConfig;
  joint: Omit<JointSettings, 'config'>;
  ngramOrder: 1 | 2;
  folds: number;
  seed: number;
  version: string;
  corpusFile: string;
  log: (message: string) => void;
}

function significant(value: number): number {
  return value === 0 ? 0 : Number(value.toPrecision(4));
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Standardiser statistics keep six digits: they are subtracted before weighting. */
function significantMean(value: number): number {
  return Number(value.toPrecision(6));
}

interface TraitFit {
  weights: LogisticModel;
  preprocessor: FoldPreprocessor;
  threshold: number;
  signs: FoldSigns;
  professional?: { weights: LogisticModel; signs: FoldSigns };
  outOfFold: Float64Array;
  excerptLogits: Float64Array[];
  foldAccuracy: number[];
  foldAuc: number[];
  /** Decision values of the professional texts (out of fold where trained on them). */
  professionalValues: Float64Array | null;
}

export function trainModel(inputs: TrainInputs, options: TrainOptions): ModelFile {
  const { config, ngramOrder, log } = options;
  const { essays, professional, vectors } = inputs;
  const essayTexts = essays.documents.map((doc) => doc.text);
  const professionalTexts = professional?.texts ?? [];
  // The word-vector block serves extraversion and agreeableness; the other traits read without it.
  const withVectors = prepareTexts([...essayTexts, ...professionalTexts.map((text) => text.text)], config, ngramOrder, vectors);
  const excerpts = EXCERPT_LENGTHS.map((length) => prepareTexts(essayTexts.map((text) => firstWords(text, length)), config, ngramOrder, vectors));
  const plainConfig: TrainingConfig = { ...config, vectorWeight: 0 };
  const essayDocs = withVectors.slice(0, essayTexts.length);
  const professionalDocs = withVectors.slice(essayTexts.length);
  const typicalWords = median(essayDocs.map((doc) => doc.wordCount));
  const denseSize = DENSE_NAMES.length;
  const genres: Genre[] = professionalTexts.map((text) => text.genre);
  log(`features: ${denseSize} word-class, style and signal measures${vectors !== null ? ` and ${vectors.dimensions} word-vector dimensions` : ''}; ${essayDocs.length} essays, ${professionalDocs.length} professional texts`);

  // One dense standardiser for the file, fitted on every training text (design.ts fitPreprocessor).
  const shared = fitPreprocessor(withVectors, withVectors.map((_, row) => row), config);
  const denseStats = { mean: shared.mean, sd: shared.sd };
  const fits = new Map<Trait, TraitFit>();
  for (const trait of essays.traits) {
    const circle = (CIRCLE_TRAITS as readonly Trait[]).includes(trait);
    const fit = circle && professional !== null
      ? fitCircleTrait(trait as CircleTrait, inputs, withVectors, excerpts, options, denseStats)
      : fitEssayTrait(trait, inputs, essayDocs, professionalDocs, excerpts, { ...options, config: circle ? config : plainConfig }, denseStats);
    fits.set(trait, fit);
    log(`${trait}: ${options.folds}-fold accuracy ${(100 * meanAndSd(fit.foldAccuracy).mean).toFixed(1)}%, AUC ${meanAndSd(fit.foldAuc).mean.toFixed(3)}`);
  }

  const curve = lengthCurve(
    EXCERPT_LENGTHS.map((words, i) => ({ words, aucs: [...fits].map(([trait, fit]) => rocAuc(fit.excerptLogits[i] ?? [], labelsFor(essays.documents, trait))) })),
    [...fits].map(([trait, fit]) => rocAuc(fit.outOfFold, labelsFor(essays.documents, trait))),
    typicalWords,
  ).map(([words, factor]): [number, number] => [words, significant(factor)]);
  log(`length factor: ${curve.map(([words, factor]) => `${words} words ${factor.toFixed(2)}`).join(', ')}`);

  // One n-gram vocabulary for the file: the buckets any trait's preprocessor kept with a weight.
  const keptBuckets = new Set<number>();
  for (const fit of fits.values()) {
    const models = [fit.weights, ...(fit.professional !== undefined ? [fit.professional.weights] : [])];
    fit.preprocessor.keptBuckets.forEach((bucket, k) => {
      if (models.some((model) => Math.abs(model.weights[fit.preprocessor.mean.length + k] ?? 0) >= PRUNE_BELOW)) keptBuckets.add(bucket);
    });
  }
  const buckets = [...keptBuckets].sort((a, b) => a - b);
  const rowOfBucket = new Map(buckets.map((bucket, row) => [bucket, row]));
  const documentCount = withVectors.length;
  const maxEvidenceIdf = Math.log((1 + documentCount) / (1 + Math.ceil(EVIDENCE_MIN_SHARE * documentCount))) + 1;

  const traits: Partial<Record<Trait, TraitWeightsFile>> = {};
  const metrics: Partial<Record<Trait, TraitMetricsFile>> = {};
  const table: Partial<Record<Trait, { personal: number[]; professional?: number[] }>> = {};
  const words = vectors !== null ? [...vectors.vectors.keys()].sort() : [];
  for (const [trait, fit] of fits) {
    const circle = (CIRCLE_TRAITS as readonly Trait[]).includes(trait);
    const traitConfig = circle ? config : plainConfig;
    const folded = (model: LogisticModel, signs: FoldSigns) => foldWeights(model, fit.preprocessor, traitConfig, signs, fit.threshold, rowOfBucket, buckets.length, maxEvidenceIdf);
    const personal = folded(fit.weights, fit.signs);
    const calibration = calibrate(fit.outOfFold, fit.excerptLogits, typicalWords, significant);
    const entry: TraitWeightsFile = {
      intercept: personal.intercept,
      quantiles: calibration.full.quantiles,
      lengthQuantiles: calibration.levels.map(({ words: levelWords, quantiles }) => ({ words: levelWords, quantiles: Array.from(quantiles) })),
      dense: personal.dense,
      ngrams: personal.ngrams,
      stable: personal.stable,
    };
    let professionalTable: number[] | undefined;
    if (fit.professional !== undefined) {
      const weights = folded(fit.professional.weights, fit.professional.signs);
      entry.professional = { intercept: weights.intercept, dense: weights.dense, ngrams: weights.ngrams, stable: weights.stable };
    }
    if (vectors !== null && circle) {
      const own = foldVectors(fit.weights, fit.preprocessor, traitConfig, vectors, words);
      entry.intercept = significant(entry.intercept + own.constant);
      if (fit.professional !== undefined && entry.professional !== undefined) {
        const theirs = foldVectors(fit.professional.weights, fit.preprocessor, traitConfig, vectors, words);
        entry.professional.intercept = significant(entry.professional.intercept + theirs.constant);
        professionalTable = theirs.values;
      }
      table[trait] = professionalTable !== undefined ? { personal: own.values, professional: professionalTable } : { personal: own.values };
    }
    if (fit.professionalValues !== null) entry.norms = mapNorms(genreNorms(fit.professionalValues, genres), significant);
    traits[trait] = entry;
    const labels = labelsFor(essays.documents, trait);
    metrics[trait] = {
      accuracy: significant(meanAndSd(fit.foldAccuracy).mean),
      accuracySd: significant(meanAndSd(fit.foldAccuracy).sd),
      auc: significant(meanAndSd(fit.foldAuc).mean),
      majorityBaseline: significant(majorityBaseline(labels)),
    };
  }

  const file: ModelFile = {
    format: MODEL_FORMAT,
    version: options.version,
    corpus: { file: options.corpusFile, sha256: essays.sha256, documents: essays.documents.length },
    features: { hashBits: config.hashBits, ngramOrder, lexiconVersion: LEXICON_VERSION, dense: [...DENSE_NAMES], clip: config.clip, minDocumentFrequency: config.minDocumentFrequency },
    training: {
      ...options.joint,
      l2: config.l2,
      denseWeight: config.denseWeight,
      signalWeight: config.signalWeight,
      vectorWeight: config.vectorWeight,
      ngramWeight: config.ngramWeight,
      folds: options.folds,
      seed: options.seed,
    },
    standardiser: standardiserOf(shared, denseSize),
    lengthCurve: curve,
    ngramBuckets: buckets.map((bucket, i) => bucket - (i === 0 ? 0 : (buckets[i - 1] ?? 0))),
    traits,
    metrics,
    signalsVersion: SIGNALS_VERSION,
  };
  if (professional !== null) {
    file.professional = { file: professional.file, sha256: professional.sha256, documents: professionalTexts.length };
    const features = [...essayTexts, ...professionalTexts.map((text) => text.text)].map((text) => genreFeatures(text, tokensOf(text).words));
    file.genres = trainGenreModel(features, [...essayTexts.map((): Genre => 'personal'), ...genres]);
    log('kind-of-writing detector trained');
  }
  if (vectors !== null) file.wordTable = wordTableFile(vectors, table);
  return file;
}

function mapNorms(norms: Partial<Record<Genre, number[]>>, round: (value: number) => number): Partial<Record<Genre, number[]>> {
  return Object.fromEntries(Object.entries(norms).map(([genre, quantiles]) => [genre, quantiles.map(round)]));
}

/** Every trait shares the dense standardiser: it is fitted on the same rows (essays and, for v3, professional texts). */
function standardiserOf(preprocessor: FoldPreprocessor | undefined, denseSize: number): ModelFile['standardiser'] {
  return {
    mean: Array.from({ length: denseSize }, (_, j) => significantMean(preprocessor?.mean[j] ?? 0)),
    sd: Array.from({ length: denseSize }, (_, j) => significantMean(preprocessor?.sd[j] ?? 1)),
  };
}

/**
 * A fitted model's weights as the file stores them: scaled by their block, idf folded into the
 * n-grams, the decision threshold in the intercept, on the file's shared n-gram rows, with the
 * record of which kept their sign in every fold (for evidence).
 */
function foldWeights(
  model: LogisticModel,
  preprocessor: FoldPreprocessor,
  config: TrainingConfig,
  signs: FoldSigns,
  threshold: number,
  rowOfBucket: ReadonlyMap<number, number>,
  rows: number,
  maxEvidenceIdf: number,
): { intercept: number; dense: number[]; ngrams: number[]; stable: { dense: number[]; ngrams: number[] } } {
  const denseSize = DENSE_NAMES.length;
  const firstNgram = preprocessor.mean.length;
  const dense = Array.from({ length: denseSize }, (_, j) => significant((model.weights[j] ?? 0) * blockScale(config, j)));
  const ngrams = new Array<number>(rows).fill(0);
  const stableRows: number[] = [];
  preprocessor.keptBuckets.forEach((bucket, k) => {
    const row = rowOfBucket.get(bucket);
    if (row === undefined) return;
    const weight = significant((model.weights[firstNgram + k] ?? 0) * (preprocessor.idf[k] ?? 0) * config.ngramWeight);
    ngrams[row] = weight;
    if ((preprocessor.idf[k] ?? Infinity) <= maxEvidenceIdf && isStable(signs, signs.ngrams, bucket, weight)) stableRows.push(row);
  });
  stableRows.sort((a, b) => a - b);
  const stableDense = dense.flatMap((w, j) => (isStable(signs, signs.dense, j, w) ? [j] : []));
  return {
    intercept: significant(model.intercept - threshold),
    dense,
    ngrams,
    stable: { dense: stableDense, ngrams: stableRows.map((row, i) => row - (i === 0 ? 0 : (stableRows[i - 1] ?? 0))) },
  };
}

/** Extraversion or agreeableness, learnt from the essays and the professional texts together (joint.ts). */
type DenseStats = { mean: Float64Array; sd: Float64Array };

function fitCircleTrait(trait: CircleTrait, inputs: TrainInputs, docs: PreparedDocument[], excerpts: PreparedDocument[][], options: TrainOptions, denseStats: DenseStats): TraitFit {
  const { essays, professional } = inputs;
  const settings: JointSettings = { config: options.config, ...options.joint };
  const data: JointData = {
    docs,
    essayLabels: { extraversion: labelsFor(essays.documents, 'extraversion'), agreeableness: labelsFor(essays.documents, 'agreeableness') },
    professional: professional?.texts ?? [],
  };
  const denseSize = docs[0]?.dense.length ?? 0;
  const signs = foldSigns(options.config.hashBits, denseSize);
  const professionalSigns = foldSigns(options.config.hashBits, denseSize);
  const cv = crossValidateJoint(data, settings, options.folds, options.seed, [], excerpts, (fitted, fit) => {
    if (fitted !== trait) return;
    signs.record(fit.personal, fit.preprocessor);
    professionalSigns.record(fit.professional, fit.preprocessor);
  }, [trait]);
  const essayCount = essays.documents.length;
  const final = fitJoint(data, trait, docs.map((_, row) => row), settings, denseStats);
  return {
    weights: final.personal,
    preprocessor: final.preprocessor,
    threshold: final.threshold,
    signs,
    professional: { weights: final.professional, signs: professionalSigns },
    outOfFold: cv.outOfFold[trait].slice(0, essayCount),
    excerptLogits: cv.essayVariants[trait],
    foldAccuracy: cv.foldAccuracy[trait],
    foldAuc: cv.foldAuc[trait],
    professionalValues: cv.outOfFold[trait].slice(essayCount),
  };
}

/** A trait the professional corpus has no labels for: learnt from the essays; professional texts only set its norms. */
function fitEssayTrait(
  trait: Trait,
  inputs: TrainInputs,
  essayDocs: PreparedDocument[],
  professionalDocs: PreparedDocument[],
  excerpts: PreparedDocument[][],
  options: TrainOptions,
  denseStats: { mean: Float64Array; sd: Float64Array },
): TraitFit {
  const { config } = options;
  const labels = labelsFor(inputs.essays.documents, trait);
  const denseSize = essayDocs[0]?.dense.length ?? 0;
  const signs = foldSigns(config.hashBits, denseSize);
  const cv = crossValidate(essayDocs, labels, config, { folds: options.folds, repeats: 1, seed: options.seed, onFold: signs.record }, excerpts);
  const rows = essayDocs.map((_, row) => row);
  const preprocessor = fitPreprocessor(essayDocs, rows, config, denseStats);
  const matrix = buildMatrix(essayDocs, rows, preprocessor, config);
  const weights = fitLogistic(matrix, labels, { l2: config.l2 });
  const threshold = priorMatchingThreshold(linearScores(matrix, weights), labels);
  const professionalValues =
    professionalDocs.length > 0
      ? decisionValues({ personal: weights, professional: weights, preprocessor, threshold }, professionalDocs, professionalDocs.map((_, row) => row), config, 'personal')
      : null;
  return {
    weights,
    preprocessor,
    threshold,
    signs,
    outOfFold: cv.outOfFoldLogits[0] ?? new Float64Array(0),
    excerptLogits: cv.alternativeLogits,
    foldAccuracy: cv.foldAccuracy,
    foldAuc: cv.foldAuc,
    professionalValues,
  };
}
