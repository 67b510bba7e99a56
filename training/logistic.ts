import { minimize } from './lbfgs.ts';

/** Rows of a sparse design matrix in compressed-row form. */
export interface SparseMatrix {
  rows: number;
  columns: number;
  rowStart: Int32Array;
  columnIndex: Int32Array;
  values: Float64Array;
}

export interface LogisticModel {
  weights: Float64Array;
  intercept: number;
}

export interface LogisticOptions {
  /** Strength of the L2 penalty on the weights (the intercept is not penalised). */
  l2: number;
  maxIterations?: number;
  /** Per row: how much its loss counts (default 1 each); the loss is their weighted mean. */
  sampleWeights?: ArrayLike<number>;
}

/** log(1 + e^x) without overflow. */
export function softplus(x: number): number {
  return x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x));
}

export function sigmoid(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

export function linearScores(matrix: SparseMatrix, model: LogisticModel): Float64Array {
  const scores = new Float64Array(matrix.rows);
  const { rowStart, columnIndex, values } = matrix;
  for (let row = 0; row < matrix.rows; row++) {
    let z = model.intercept;
    const end = rowStart[row + 1] ?? 0;
    for (let k = rowStart[row] ?? 0; k < end; k++) z += (values[k] ?? 0) * (model.weights[columnIndex[k] ?? 0] ?? 0);
    scores[row] = z;
  }
  return scores;
}

/**
 * Minimises mean logistic loss + (l2 / 2)·‖w‖² with L-BFGS. Targets are 0/1 labels, or
 * probabilities in [0, 1] where a row's label is soft (a text written between two styles):
 * the loss is then the cross-entropy softplus(z) − y·z, which is the usual loss for y ∈ {0, 1}.
 * Deterministic: the same matrix, targets and options always give the same model.
 */
export function fitLogistic(matrix: SparseMatrix, labels: ArrayLike<number>, options: LogisticOptions): LogisticModel {
  const { rows, columns, rowStart, columnIndex, values } = matrix;
  const { l2 } = options;
  const residuals = new Float64Array(rows);
  const weightOf = (row: number): number => options.sampleWeights?.[row] ?? 1;
  let totalWeight = 0;
  for (let row = 0; row < rows; row++) totalWeight += weightOf(row);
  const scale = totalWeight > 0 ? totalWeight : 1;

  // Parameters: the weights, then the intercept in the last slot.
  const objective = (parameters: Float64Array, gradient: Float64Array): number => {
    const intercept = parameters[columns] ?? 0;
    let loss = 0;
    for (let row = 0; row < rows; row++) {
      let z = intercept;
      const end = rowStart[row + 1] ?? 0;
      for (let k = rowStart[row] ?? 0; k < end; k++) z += (values[k] ?? 0) * (parameters[columnIndex[k] ?? 0] ?? 0);
      const target = labels[row] ?? 0;
      const weight = weightOf(row);
      loss += weight * (softplus(z) - target * z);
      residuals[row] = weight * (sigmoid(z) - target);
    }
    gradient.fill(0);
    let interceptGradient = 0;
    for (let row = 0; row < rows; row++) {
      const residual = residuals[row] ?? 0;
      interceptGradient += residual;
      const end = rowStart[row + 1] ?? 0;
      for (let k = rowStart[row] ?? 0; k < end; k++) {
        const column = columnIndex[k] ?? 0;
        gradient[column] = (gradient[column] ?? 0) + residual * (values[k] ?? 0);
      }
    }
    let penalty = 0;
    for (let j = 0; j < columns; j++) {
      const w = parameters[j] ?? 0;
      penalty += w * w;
      gradient[j] = (gradient[j] ?? 0) / scale + l2 * w;
    }
    gradient[columns] = interceptGradient / scale;
    return loss / scale + (l2 / 2) * penalty;
  };

  const result = minimize(objective, new Float64Array(columns + 1), { maxIterations: options.maxIterations ?? 300 });
  return { weights: result.x.slice(0, columns), intercept: result.x[columns] ?? 0 };
}

/**
 * The decision threshold on training logits that predicts "high" for the same share of
 * documents as the labels do. A strongly regularised model has small logits, and its
 * intercept alone would then answer the majority class for almost everyone; matching the
 * labels' split keeps the decision on the ranking, which is where the signal is.
 */
export function priorMatchingThreshold(trainingLogits: Float64Array, labels: Uint8Array): number {
  let positives = 0;
  for (const label of labels) positives += label;
  const sorted = Float64Array.from(trainingLogits).sort();
  const negatives = sorted.length - positives;
  if (positives === 0 || negatives === 0) return 0;
  // Midway between the last document predicted low and the first predicted high.
  return ((sorted[negatives - 1] ?? 0) + (sorted[negatives] ?? 0)) / 2;
}
