import { buildMatrix, fitPreprocessor, type FoldPreprocessor, type PreparedDocument, type TrainingConfig } from './design.ts';
import { fitLogistic, linearScores, priorMatchingThreshold, type LogisticModel } from './logistic.ts';
import { accuracy, rocAuc } from './metrics.ts';
import { stratifiedFolds } from './random.ts';

export interface CrossValidationOptions {
  folds: number;
  repeats: number;
  seed: number;
  /** Called with each fold's model of the first repeat (e.g. to see which weights keep their sign). */
  onFold?: (model: LogisticModel, preprocessor: FoldPreprocessor) => void;
}

export interface CrossValidationResult {
  /**
   * For each alternative version of the corpus passed in `alsoScore` (e.g. the same
   * documents cut short), its out-of-fold logits from the first repeat.
   */
  alternativeLogits: Float64Array[];
  /** One entry per (repeat, fold). */
  foldAccuracy: number[];
  foldAuc: number[];
  /** Out-of-fold logit minus its fold's decision threshold, one array per repeat. */
  outOfFoldLogits: Float64Array[];
}

/**
 * Repeated stratified k-fold cross-validation of one trait. Each repeat reshuffles the
 * folds with its own seed (seed + repeat); every fold refits the preprocessing too.
 */
export function crossValidate(
  docs: readonly PreparedDocument[],
  labels: Uint8Array,
  config: TrainingConfig,
  options: CrossValidationOptions,
  alsoScore: ReadonlyArray<readonly PreparedDocument[]> = [],
): CrossValidationResult {
  const alternativeLogits = alsoScore.map(() => new Float64Array(docs.length));
  const foldAccuracy: number[] = [];
  const foldAuc: number[] = [];
  const outOfFoldLogits: Float64Array[] = [];
  for (let repeat = 0; repeat < options.repeats; repeat++) {
    const assignment = stratifiedFolds(labels, options.folds, options.seed + repeat);
    const logits = new Float64Array(docs.length);
    for (let fold = 0; fold < options.folds; fold++) {
      const train: number[] = [];
      const test: number[] = [];
      assignment.forEach((f, doc) => (f === fold ? test : train).push(doc));
      const preprocessor = fitPreprocessor(docs, train, config);
      const trainMatrix = buildMatrix(docs, train, preprocessor, config);
      const trainLabels = Uint8Array.from(train, (i) => labels[i] ?? 0);
      const model = fitLogistic(trainMatrix, trainLabels, { l2: config.l2 });
      const threshold = priorMatchingThreshold(linearScores(trainMatrix, model), trainLabels);
      if (repeat === 0) options.onFold?.(model, preprocessor);
      const testScores = linearScores(buildMatrix(docs, test, preprocessor, config), model).map((z) => z - threshold);
      const testLabels = Uint8Array.from(test, (i) => labels[i] ?? 0);
      test.forEach((doc, k) => {
        logits[doc] = testScores[k] ?? 0;
      });
      if (repeat === 0) {
        alsoScore.forEach((alternative, a) => {
          const scores = linearScores(buildMatrix(alternative, test, preprocessor, config), model);
          test.forEach((doc, k) => {
            const target = alternativeLogits[a];
            if (target !== undefined) target[doc] = (scores[k] ?? 0) - threshold;
          });
        });
      }
      foldAccuracy.push(accuracy(testScores, testLabels));
      foldAuc.push(rocAuc(testScores, testLabels));
    }
    outOfFoldLogits.push(logits);
  }
  return { foldAccuracy, foldAuc, outOfFoldLogits, alternativeLogits };
}
