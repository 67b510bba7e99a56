/** Area under the ROC curve by the rank-sum (Mann–Whitney) identity, ties counted half. */
export function rocAuc(scores: ArrayLike<number>, labels: ArrayLike<number>): number {
  const order = Array.from({ length: scores.length }, (_, i) => i).sort((a, b) => (scores[a] ?? 0) - (scores[b] ?? 0));
  let positives = 0;
  let positiveRankSum = 0;
  let i = 0;
  while (i < order.length) {
    let j = i;
    const value = scores[order[i] ?? 0] ?? 0;
    while (j + 1 < order.length && (scores[order[j + 1] ?? 0] ?? 0) === value) j++;
    const averageRank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) {
      if (labels[order[k] ?? 0] === 1) {
        positives++;
        positiveRankSum += averageRank;
      }
    }
    i = j + 1;
  }
  const negatives = scores.length - positives;
  if (positives === 0 || negatives === 0) return 0.5;
  return (positiveRankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

/** Share of documents whose logit has the sign of their label (threshold at p = 0.5). */
export function accuracy(logits: ArrayLike<number>, labels: ArrayLike<number>): number {
  let correct = 0;
  for (let i = 0; i < logits.length; i++) if (((logits[i] ?? 0) > 0 ? 1 : 0) === labels[i]) correct++;
  return logits.length === 0 ? 0 : correct / logits.length;
}

/** Accuracy of always answering the more frequent class. */
export function majorityBaseline(labels: ArrayLike<number>): number {
  let positives = 0;
  for (let i = 0; i < labels.length; i++) positives += labels[i] === 1 ? 1 : 0;
  return Math.max(positives, labels.length - positives) / Math.max(labels.length, 1);
}

export function meanAndSd(values: readonly number[]): { mean: number; sd: number } {
  if (values.length === 0) return { mean: 0, sd: 0 };
  const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
  const variance = values.length > 1 ? values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (values.length - 1) : 0;
  return { mean, sd: Math.sqrt(variance) };
}

/** `count` evenly spaced quantiles (0 … 1) of `values`, linear between order statistics. */
export function quantiles(values: ArrayLike<number>, count: number): number[] {
  const sorted = Float64Array.from(values).sort();
  if (sorted.length === 0) return new Array<number>(count).fill(0);
  return Array.from({ length: count }, (_, k) => {
    const position = (k / Math.max(count - 1, 1)) * (sorted.length - 1);
    const below = Math.floor(position);
    const left = sorted[below] ?? 0;
    const right = sorted[Math.min(below + 1, sorted.length - 1)] ?? left;
    return left + (right - left) * (position - below);
  });
}
