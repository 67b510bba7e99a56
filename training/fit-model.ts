import type { Trait } from '../src/personality/types.ts';
import { DENSE_NAMES, extractFeatures } from '../src/personality/text/features.ts';
import { LEXICON_VERSION } from '../src/personality/text/lexicon-data.ts';
import { tokenizeProse } from '../src/personality/text/markup.ts';
import { MODEL_FORMAT, type ModelFile, type TraitMetricsFile, type TraitWeightsFile } from '../src/personality/text/model-file.ts';
import { labelsFor, type LabelledCorpus } from './corpus.ts';
import { crossValidate } from './cross-validate.ts';
import { buildMatrix, fitPreprocessor, prepareDocument, type PreparedDocument, type TrainingConfig } from './design.ts';
import { lengthCurve } from '../src/personality/text/standing.ts';
import { calibrate, EXCERPT_LENGTHS } from './calibration.ts';
import { firstWords } from './stability.ts';
import { foldSigns, isStable, type FoldSigns } from './stable-terms.ts';
import { bucketWordClasses } from './term-classes.ts';
import { fitLogistic, linearScores, priorMatchingThreshold } from './logistic.ts';
import { majorityBaseline, meanAndSd, rocAuc } from './metrics.ts';

/**
 * The settings `npm run train` ships, chosen by repeated 10-fold cross-validation on the
 * essays (see DATA_CARD.md for the grid and the numbers): unigrams only (bigrams did not
 * help and tripled the cost), every word seen in 3+ documents, the word-class/style block
 * scaled down to 0.1 so the many n-grams and the few dense features share one penalty.
 */
export const DEFAULT_CONFIG: TrainingConfig = { hashBits: 20, minDocumentFrequency: 3, denseWeight: 0.1, ngramWeight: 1, l2: 0.01, clip: 5 };
export const DEFAULT_NGRAM_ORDER: 1 | 2 = 1;

/**
 * A word is shown as evidence only if one training text in forty uses it: a rarer word
 * can keep its sign in every fold because the same few essays carry it each time ("row",
 * in 36 of 1,988 essays, for agreeableness), which says more about those essays than
 * about the trait.
 */
const EVIDENCE_MIN_SHARE = 0.025;

/** Weights below this cannot move a logit by a thousandth; they are left out of the file. */
const PRUNE_BELOW = 1e-5;

export interface TrainOptions {
  config: TrainingConfig;
  ngramOrder: 1 | 2;
  folds: number;
  seed: number;
  version: string;
  corpusFile: string;
  log: (message: string) => void;
}

/** The corpus as features, computed once and shared by every fold and trait. */
export function prepareCorpus(texts: readonly string[], config: TrainingConfig, ngramOrder: 1 | 2): PreparedDocument[] {
  return texts.map((text) => prepareDocument(extractFeatures(tokenizeProse(text), config.hashBits, ngramOrder)));
}

function significant(value: number): number {
  return value === 0 ? 0 : Number(value.toPrecision(4));
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

export function trainModel(corpus: LabelledCorpus, options: TrainOptions): ModelFile {
  const { config, ngramOrder, log } = options;
  const texts = corpus.documents.map((doc) => doc.text);
  const docs = prepareCorpus(texts, config, ngramOrder);
  const excerpts = EXCERPT_LENGTHS.map((length) => prepareCorpus(texts.map((text) => firstWords(text, length)), config, ngramOrder));
  const typicalWords = median(docs.map((doc) => doc.wordCount));
  const everyDocument = docs.map((_, index) => index);
  const preprocessor = fitPreprocessor(docs, everyDocument, config);
  const matrix = buildMatrix(docs, everyDocument, preprocessor, config);
  const denseSize = DENSE_NAMES.length;
  log(`features: ${denseSize} word-class and style measures, ${preprocessor.keptBuckets.length} n-gram buckets in ${config.minDocumentFrequency}+ documents`);

  const traits: Partial<Record<Trait, TraitWeightsFile>> = {};
  const metrics: Partial<Record<Trait, TraitMetricsFile>> = {};
  const keep = new Uint8Array(preprocessor.keptBuckets.length);
  // Held-out AUC per trait of excerpts (per length) and of whole texts: the length curve.
  const excerptAucs: number[][] = EXCERPT_LENGTHS.map(() => []);
  const fullAucs: number[] = [];
  const stableByTrait = new Map<Trait, { dense: number[]; ngrams: number[] }>();
  // idf of a word in EVIDENCE_MIN_SHARE of the documents: rarer words are never shown.
  const maxEvidenceIdf = Math.log((1 + docs.length) / (1 + Math.ceil(EVIDENCE_MIN_SHARE * docs.length))) + 1;
  for (const trait of corpus.traits) {
    const labels = labelsFor(corpus.documents, trait);
    const signs: FoldSigns = foldSigns(config.hashBits, denseSize);
    const onFold = signs.record;
    const cv = crossValidate(docs, labels, config, { folds: options.folds, repeats: 1, seed: options.seed, onFold }, excerpts);
    const outOfFold = cv.outOfFoldLogits[0] ?? new Float64Array(0);
    EXCERPT_LENGTHS.forEach((_, i) => excerptAucs[i]?.push(rocAuc(cv.alternativeLogits[i] ?? [], labels)));
    fullAucs.push(rocAuc(outOfFold, labels));
    const calibration = calibrate(outOfFold, cv.alternativeLogits, typicalWords, significant);

    const model = fitLogistic(matrix, labels, { l2: config.l2 });
    const threshold = priorMatchingThreshold(linearScores(matrix, model), labels);
    const ngrams = Array.from(preprocessor.keptBuckets, (_, k) => {
      const weight = significant((model.weights[denseSize + k] ?? 0) * (preprocessor.idf[k] ?? 0) * config.ngramWeight);
      if (Math.abs(weight) >= PRUNE_BELOW) keep[k] = 1;
      return weight;
    });
    const denseWeights = Array.from({ length: denseSize }, (_, j) => significant((model.weights[j] ?? 0) * config.denseWeight));
    const stableDense = denseWeights.flatMap((w, j) => (isStable(signs, signs.dense, j, w) ? [j] : []));
    const stableNgrams = ngrams.flatMap((w, k) =>
      (preprocessor.idf[k] ?? Infinity) <= maxEvidenceIdf && isStable(signs, signs.ngrams, preprocessor.keptBuckets[k] ?? -1, w) ? [k] : [],
    );
    stableByTrait.set(trait, { dense: stableDense, ngrams: stableNgrams });
    log(`${trait}: ${stableNgrams.length} of ${ngrams.filter((w) => w !== 0).length} word weights and ${stableDense.length} of ${denseSize} class/style weights keep their sign in all ${options.folds} folds`);
    traits[trait] = {
      intercept: significant(model.intercept - threshold),
      quantiles: calibration.full.quantiles,
      lengthQuantiles: calibration.levels.map(({ words, quantiles: levelQuantiles }) => ({ words, quantiles: Array.from(levelQuantiles) })),
      dense: denseWeights,
      ngrams,
    };
    const accuracy = meanAndSd(cv.foldAccuracy);
    metrics[trait] = {
      accuracy: significant(accuracy.mean),
      accuracySd: significant(accuracy.sd),
      auc: significant(meanAndSd(cv.foldAuc).mean),
      majorityBaseline: significant(majorityBaseline(labels)),
    };
    log(`${trait}: ${options.folds}-fold accuracy ${(100 * accuracy.mean).toFixed(1)}% (majority ${(100 * majorityBaseline(labels)).toFixed(1)}%), AUC ${meanAndSd(cv.foldAuc).mean.toFixed(3)}`);
  }

  const curve = lengthCurve(
    EXCERPT_LENGTHS.map((words, i) => ({ words, aucs: excerptAucs[i] ?? [] })),
    fullAucs,
    typicalWords,
  ).map(([words, factor]): [number, number] => [words, significant(factor)]);
  log(`length factor: ${curve.map(([words, factor]) => `${words} words ${factor.toFixed(2)}`).join(', ')}`);

  const buckets: number[] = [];
  let previous = 0;
  preprocessor.keptBuckets.forEach((bucket, k) => {
    if (keep[k] !== 1) return;
    buckets.push(bucket - previous);
    previous = bucket;
  });
  for (const weights of Object.values(traits)) weights.ngrams = weights.ngrams.filter((_, k) => keep[k] === 1);
  // Rows after pruning: stable-term lists and word classes name rows of the file's ngramBuckets.
  const rowOf = new Int32Array(keep.length).fill(-1);
  let row = 0;
  keep.forEach((kept, k) => {
    if (kept === 1) rowOf[k] = row++;
  });
  for (const [trait, stable] of stableByTrait) {
    const weights = traits[trait];
    if (weights === undefined) continue;
    const rows = stable.ngrams.map((k) => rowOf[k] ?? -1).filter((r) => r >= 0);
    weights.stable = { dense: stable.dense, ngrams: rows.map((r, i) => r - (i === 0 ? 0 : (rows[i - 1] ?? 0))) };
  }
  log('tagging word classes of the weighted words (wink-nlp)');
  const classes = bucketWordClasses(texts, config.hashBits);
  const classLabels = [...new Set(classes.values())].sort();
  const keptRows = Array.from(preprocessor.keptBuckets).filter((_, k) => keep[k] === 1);
  const wordClasses = { labels: classLabels, ngrams: keptRows.map((bucket) => classLabels.indexOf(classes.get(bucket) ?? '')) };

  return {
    format: MODEL_FORMAT,
    version: options.version,
    corpus: { file: options.corpusFile, sha256: corpus.sha256, documents: corpus.documents.length },
    features: { hashBits: config.hashBits, ngramOrder, lexiconVersion: LEXICON_VERSION, dense: [...DENSE_NAMES], clip: config.clip, minDocumentFrequency: config.minDocumentFrequency },
    training: { l2: config.l2, denseWeight: config.denseWeight, ngramWeight: config.ngramWeight, folds: options.folds, seed: options.seed },
    standardiser: { mean: Array.from(preprocessor.mean, significantMean), sd: Array.from(preprocessor.sd, significantMean) },
    lengthCurve: curve,
    ngramBuckets: buckets,
    wordClasses,
    traits,
    metrics,
  };
}

/** Standardiser statistics keep six digits: they are subtracted before weighting. */
function significantMean(value: number): number {
  return Number(value.toPrecision(6));
}
