import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TRAITS, type Trait } from '../types.ts';
import { BucketRows } from './bucket-rows.ts';
import { DENSE_NAMES } from './features.ts';
import { GENRES, type Genre, type GenreModel } from './genre.ts';
import { LEXICON_VERSION } from './lexicon-data.ts';
import { decodeFloats, parseModelFile, type ModelFile } from './model-file.ts';
import { SIGNALS_VERSION } from './signal-data.ts';
import { empiricalCdf, type LengthPoint, type LengthQuantiles } from './standing.ts';

/**
 * The model in the shape inference wants: typed arrays, the weights of every output side by
 * side per feature (one memory walk scores them all), and a compact bucket → row table
 * (bucket-rows.ts).
 *
 * Outputs: the five traits as the essays read them (TRAITS order), then extraversion and
 * agreeableness as professional writing reads them (model v3; zeros in older files, which
 * then read every text as the essays do).
 */
export const OUTPUTS = [...TRAITS, 'extraversion@professional', 'agreeableness@professional'] as const;
export const OUTPUT_COUNT = OUTPUTS.length;
/** Output index of a trait read as professional writing, or -1 when it has none. */
export const PROFESSIONAL_OUTPUT: Readonly<Partial<Record<Trait, number>>> = { extraversion: TRAITS.length, agreeableness: TRAITS.length + 1 };

/** Numbers a word of the word table holds: its weight, then one value per output. */
export const WORD_ROW = 1 + OUTPUT_COUNT;

export interface WordTable {
  index: ReadonlyMap<string, number>;
  /**
   * Row-major [word][weight, value per output], WORD_ROW numbers a word: a word's weight and its
   * values are read together, so they lie together (32 bytes), where a table of weights beside a
   * table of values cost a cache miss in each for every word of a text.
   */
  rows: Float32Array;
}

export interface TextModel {
  version: string;
  hashBits: number;
  ngramOrder: 1 | 2;
  clip: number;
  denseMean: Float64Array;
  denseSd: Float64Array;
  /** Bucket → row of `ngramWeights`, or -1 for a bucket without weights. */
  rowOfBucket: BucketRows;
  /** Row-major [feature][output], outputs in OUTPUTS order; zeros for an untrained output. */
  denseWeights: Float64Array;
  ngramWeights: Float64Array;
  intercepts: Float64Array;
  /** Traits the model was trained for; the others are reported with zero confidence. */
  trainedTraits: ReadonlySet<Trait>;
  /** Traits with their own professional reading (model v3: extraversion and agreeableness). */
  professionalTraits: ReadonlySet<Trait>;
  /** Per trait: quantiles of the reference population's decision values (standing.ts). */
  quantiles: Readonly<Record<Trait, Float64Array>>;
  /** Per trait: the share of the reference population below the decision threshold. */
  atThreshold: Readonly<Record<Trait, number>>;
  /** Per trait: quantiles of reference texts cut short (ascending words; empty in models before v2). */
  lengthQuantiles: Readonly<Record<Trait, readonly LengthQuantiles[]>>;
  /** Per trait and kind of professional writing: the norms it is read against (empty before v3). */
  norms: Readonly<Record<Trait, Partial<Record<Genre, Float64Array>>>>;
  /** The kind-of-writing detector; null before v3 (every text is then personal writing). */
  genres: GenreModel | null;
  /** Word meanings folded into numbers per output; null before v3. */
  wordTable: WordTable | null;
  /** Length of the typical full reference text: from here on, `quantiles` alone apply. */
  typicalWords: number;
  /** Per trait: cross-validated ROC AUC, 0.5 (chance) for an untrained trait. */
  auc: Readonly<Record<Trait, number>>;
  lengthCurve: readonly LengthPoint[];
  /**
   * Per output: 1 for each dense index and n-gram row whose weight kept its sign in every
   * cross-validation fold; null for a model without that record (everything may be shown).
   */
  stable: ReadonlyArray<{ dense: Uint8Array; ngramRows: Uint8Array } | null>;
  file: ModelFile;
}

export const DEFAULT_MODEL_PATH = fileURLToPath(new URL('./model/rapport-text-v3.json', import.meta.url));

function perTrait<T>(valueOf: (trait: Trait) => T): Record<Trait, T> {
  return {
    extraversion: valueOf('extraversion'),
    agreeableness: valueOf('agreeableness'),
    conscientiousness: valueOf('conscientiousness'),
    openness: valueOf('openness'),
    neuroticism: valueOf('neuroticism'),
  };
}

function stableRows(record: { dense: number[]; ngrams: number[] } | undefined, denseSize: number, rows: number): { dense: Uint8Array; ngramRows: Uint8Array } | null {
  if (record === undefined) return null;
  const dense = new Uint8Array(denseSize);
  for (const j of record.dense) dense[j] = 1;
  const ngramRows = new Uint8Array(rows);
  let row = 0;
  record.ngrams.forEach((gap, i) => {
    row = i === 0 ? gap : row + gap;
    ngramRows[row] = 1;
  });
  return { dense, ngramRows };
}

function wordTableOf(file: ModelFile): WordTable | null {
  const table = file.wordTable;
  if (table === undefined) return null;
  const words = table.words === '' ? [] : table.words.split(' ');
  const index = new Map<string, number>();
  words.forEach((word, i) => index.set(word, i));
  const rows = new Float32Array(words.length * WORD_ROW);
  const place = (encoded: string | undefined, column: number): void => {
    if (encoded === undefined) return;
    decodeFloats(encoded).forEach((value, i) => {
      rows[i * WORD_ROW + column] = value;
    });
  };
  place(table.weight, 0);
  TRAITS.forEach((trait, t) => {
    const entry = table.traits[trait];
    place(entry?.personal, 1 + t);
    const professional = PROFESSIONAL_OUTPUT[trait];
    if (professional !== undefined) place(entry?.professional, 1 + professional);
  });
  return { index, rows };
}

export function modelFromFile(file: ModelFile): TextModel {
  const { features } = file;
  if (features.lexiconVersion !== LEXICON_VERSION || features.dense.join(',') !== DENSE_NAMES.join(',') || (file.signalsVersion ?? SIGNALS_VERSION) !== SIGNALS_VERSION) {
    throw new Error(`text model ${file.version} was trained with other word classes, signals or style features; retrain it with \`npm run train\``);
  }
  const denseSize = features.dense.length;
  const rows = file.ngramBuckets.length;
  const bucketOfRow = new Int32Array(rows);
  let bucket = 0;
  file.ngramBuckets.forEach((gap, row) => {
    bucket += gap;
    bucketOfRow[row] = bucket;
  });
  const rowOfBucket = new BucketRows(bucketOfRow);
  const denseWeights = new Float64Array(denseSize * OUTPUT_COUNT);
  const ngramWeights = new Float64Array(rows * OUTPUT_COUNT);
  const intercepts = new Float64Array(OUTPUT_COUNT);
  const stable: Array<{ dense: Uint8Array; ngramRows: Uint8Array } | null> = new Array<null>(OUTPUT_COUNT).fill(null);
  const trainedTraits = new Set<Trait>();
  const professionalTraits = new Set<Trait>();
  const place = (output: number, weights: { intercept: number; dense: number[]; ngrams: number[]; stable?: { dense: number[]; ngrams: number[] } }): void => {
    intercepts[output] = weights.intercept;
    weights.dense.forEach((w, j) => {
      denseWeights[j * OUTPUT_COUNT + output] = w;
    });
    weights.ngrams.forEach((w, row) => {
      ngramWeights[row * OUTPUT_COUNT + output] = w;
    });
    stable[output] = stableRows(weights.stable, denseSize, rows);
  };
  TRAITS.forEach((trait, t) => {
    const weights = file.traits[trait];
    if (weights === undefined) return;
    trainedTraits.add(trait);
    place(t, weights);
    const output = PROFESSIONAL_OUTPUT[trait];
    if (weights.professional !== undefined && output !== undefined) {
      professionalTraits.add(trait);
      place(output, weights.professional);
    }
  });
  // An untrained trait stands at the threshold: score 0, and AUC 0.5 gives confidence 0.
  const quantiles = perTrait((trait) => Float64Array.from(file.traits[trait]?.quantiles ?? [0, 0]));
  const atThreshold = perTrait((trait) => empiricalCdf(quantiles[trait], 0));
  const typicalWords = file.lengthCurve[file.lengthCurve.length - 1]?.[0] ?? 0;
  const lengthQuantiles = perTrait((trait) =>
    (file.traits[trait]?.lengthQuantiles ?? []).filter((level) => level.words < typicalWords).map((level) => ({ words: level.words, quantiles: Float64Array.from(level.quantiles) })),
  );
  const norms = perTrait((trait) => {
    const byGenre: Partial<Record<Genre, Float64Array>> = {};
    for (const genre of GENRES) {
      const values = file.traits[trait]?.norms?.[genre];
      if (values !== undefined) byGenre[genre] = Float64Array.from(values);
    }
    return byGenre;
  });
  const auc = perTrait((trait) => (file.traits[trait] !== undefined ? (file.metrics[trait]?.auc ?? 0.5) : 0.5));
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
    professionalTraits,
    quantiles,
    atThreshold,
    lengthQuantiles,
    norms,
    genres: file.genres ?? null,
    wordTable: wordTableOf(file),
    typicalWords,
    auc,
    lengthCurve: file.lengthCurve,
    stable,
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
