import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TRAITS, type Trait } from '../types.ts';
import { DENSE_NAMES } from './features.ts';
import { LEXICON_VERSION } from './lexicon-data.ts';
import { parseModelFile, type ModelFile } from './model-file.ts';
import { empiricalCdf, type LengthPoint, type LengthQuantiles } from './standing.ts';

/**
 * The model in the shape inference wants: typed arrays, weights of the five traits side
 * by side per feature (one memory walk scores all traits), and a direct bucket → row
 * table instead of a hash map.
 */
export interface TextModel {
  version: string;
  hashBits: number;
  ngramOrder: 1 | 2;
  clip: number;
  denseMean: Float64Array;
  denseSd: Float64Array;
  /** Bucket → row of `ngramWeights`, or -1 for a bucket without weights. */
  rowOfBucket: Int32Array;
  /** Row-major [feature][trait], traits in TRAITS order; zeros for an untrained trait. */
  denseWeights: Float64Array;
  ngramWeights: Float64Array;
  intercepts: Float64Array;
  /** Traits the model was trained for; the others are reported with zero confidence. */
  trainedTraits: ReadonlySet<Trait>;
  /** Per trait: quantiles of the reference population's decision values (standing.ts). */
  quantiles: Readonly<Record<Trait, Float64Array>>;
  /** Per trait: the share of the reference population below the decision threshold. */
  atThreshold: Readonly<Record<Trait, number>>;
  /** Per trait: quantiles of reference texts cut short (ascending words; empty in models before v2). */
  lengthQuantiles: Readonly<Record<Trait, readonly LengthQuantiles[]>>;
  /** Length of the typical full reference text: from here on, `quantiles` alone apply. */
  typicalWords: number;
  /** Per trait: cross-validated ROC AUC, 0.5 (chance) for an untrained trait. */
  auc: Readonly<Record<Trait, number>>;
  lengthCurve: readonly LengthPoint[];
  /**
   * Per trait: 1 for each dense index and n-gram row whose weight kept its sign in every
   * cross-validation fold; null for a model without that record (everything may be shown).
   */
  stable: Readonly<Record<Trait, { dense: Uint8Array; ngramRows: Uint8Array } | null>>;
  /** Per n-gram row: the word class shown beside the word ("adjective"), or undefined. */
  wordClassOfRow: (row: number) => string | undefined;
  file: ModelFile;
}

export const TRAIT_COUNT = TRAITS.length;

export const DEFAULT_MODEL_PATH = fileURLToPath(new URL('./model/rapport-text-v2.json', import.meta.url));

export function modelFromFile(file: ModelFile): TextModel {
  const { features } = file;
  if (features.lexiconVersion !== LEXICON_VERSION || features.dense.join(',') !== DENSE_NAMES.join(',')) {
    throw new Error(`text model ${file.version} was trained with other word classes or style features; retrain it with \`npm run train\``);
  }
  const denseSize = features.dense.length;
  const rowOfBucket = new Int32Array(1 << features.hashBits).fill(-1);
  let bucket = 0;
  file.ngramBuckets.forEach((gap, row) => {
    bucket += gap;
    rowOfBucket[bucket] = row;
  });
  const denseWeights = new Float64Array(denseSize * TRAIT_COUNT);
  const ngramWeights = new Float64Array(file.ngramBuckets.length * TRAIT_COUNT);
  const intercepts = new Float64Array(TRAIT_COUNT);
  const trainedTraits = new Set<Trait>();
  const perTrait = <T>(valueOf: (trait: Trait) => T): Record<Trait, T> => ({
    extraversion: valueOf('extraversion'),
    agreeableness: valueOf('agreeableness'),
    conscientiousness: valueOf('conscientiousness'),
    openness: valueOf('openness'),
    neuroticism: valueOf('neuroticism'),
  });
  // An untrained trait stands at the threshold: score 0, and AUC 0.5 gives confidence 0.
  const quantiles = perTrait((trait) => Float64Array.from(file.traits[trait]?.quantiles ?? [0, 0]));
  const atThreshold = perTrait((trait) => empiricalCdf(quantiles[trait], 0));
  const typicalWords = file.lengthCurve[file.lengthCurve.length - 1]?.[0] ?? 0;
  const lengthQuantiles = perTrait((trait) =>
    (file.traits[trait]?.lengthQuantiles ?? []).filter((level) => level.words < typicalWords).map((level) => ({ words: level.words, quantiles: Float64Array.from(level.quantiles) })),
  );
  const auc = perTrait((trait) => (file.traits[trait] !== undefined ? (file.metrics[trait]?.auc ?? 0.5) : 0.5));
  const stable = perTrait((trait) => {
    const record = file.traits[trait]?.stable;
    if (record === undefined) return null;
    const dense = new Uint8Array(denseSize);
    for (const j of record.dense) dense[j] = 1;
    const ngramRows = new Uint8Array(file.ngramBuckets.length);
    let row = 0;
    record.ngrams.forEach((gap, i) => {
      row = i === 0 ? gap : row + gap;
      ngramRows[row] = 1;
    });
    return { dense, ngramRows };
  });
  const classes = file.wordClasses;
  const wordClassOfRow = (row: number): string | undefined => (classes === undefined ? undefined : classes.labels[classes.ngrams[row] ?? -1]);
  TRAITS.forEach((trait, t) => {
    const weights = file.traits[trait];
    if (weights === undefined) return;
    trainedTraits.add(trait);
    intercepts[t] = weights.intercept;
    weights.dense.forEach((w, j) => {
      denseWeights[j * TRAIT_COUNT + t] = w;
    });
    weights.ngrams.forEach((w, row) => {
      ngramWeights[row * TRAIT_COUNT + t] = w;
    });
  });
  return {
    version: file.version,
    hashBits: features.hashBits,
    ngramOrder: features.ngramOrder,
    clip: features.clip,
    denseMean: Float64Array.from(file.standardiser.mean),
    denseSd: Float64Array.from(file.standardiser.sd),
    rowOfBucket,
    denseWeights,
    ngramWeights,
    intercepts,
    trainedTraits,
    quantiles,
    atThreshold,
    lengthQuantiles,
    typicalWords,
    auc,
    lengthCurve: file.lengthCurve,
    stable,
    wordClassOfRow,
    file,
  };
}

/**
 * Reads and checks a weights file (tens of milliseconds). The service does this once at
 * start-up, for the file RAPPORT_TEXT_MODEL names, and keeps the model in its AppContext
 * (`ctx.model`); nothing here holds a model between calls.
 */
export function loadModel(path: string = DEFAULT_MODEL_PATH): TextModel {
  return modelFromFile(parseModelFile(JSON.parse(readFileSync(path, 'utf8'))));
}
