import type { FoldPreprocessor } from './design.ts';
import type { LogisticModel } from './logistic.ts';

/**
 * Which weights keep their sign across the cross-validation folds. A word whose weight
 * is positive in some folds and negative in others (or absent from a fold's vocabulary)
 * pushes a trait one way or the other depending on which essays happened to be trained
 * on: it is not a reason a person can rely on, so evidence never shows it.
 */
export interface FoldSigns {
  folds: number;
  /** Per dense column: folds with a positive weight minus folds with a negative one. */
  dense: Int16Array;
  /** Per hash bucket, the same. */
  ngrams: Int16Array;
  record: (model: LogisticModel, preprocessor: FoldPreprocessor) => void;
}

export function foldSigns(hashBits: number, denseSize: number): FoldSigns {
  const signs: FoldSigns = {
    folds: 0,
    dense: new Int16Array(denseSize),
    ngrams: new Int16Array(1 << hashBits),
    record: (model, preprocessor) => {
      signs.folds++;
      for (let j = 0; j < denseSize; j++) signs.dense[j] = (signs.dense[j] ?? 0) + Math.sign(model.weights[j] ?? 0);
      for (const bucket of preprocessor.keptBuckets) {
        const column = preprocessor.columnOfBucket[bucket] ?? -1;
        if (column >= 0) signs.ngrams[bucket] = (signs.ngrams[bucket] ?? 0) + Math.sign(model.weights[column] ?? 0);
      }
    },
  };
  return signs;
}

/** True when every fold's weight has the sign of the final model's weight `weight`. */
export function isStable(signs: FoldSigns, tally: Int16Array, index: number, weight: number): boolean {
  if (weight === 0 || index < 0 || signs.folds === 0) return false;
  return (tally[index] ?? 0) === Math.sign(weight) * signs.folds;
}
