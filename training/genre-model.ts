import { GENRE_FEATURES, GENRES, genreProbabilities, type Genre, type GenreModel } from '../src/personality/text/genre.ts';
import { minimize } from './lbfgs.ts';

/**
 * The kind-of-writing detector (src/personality/text/genre.ts): a softmax regression over the
 * shape measures, each kind weighted equally however many texts it has (the essays outnumber
 * each professional kind twenty to one), with a small L2 penalty.
 */
export function trainGenreModel(features: readonly Float64Array[], genres: readonly Genre[], l2 = 0.01): GenreModel {
  const size = GENRE_FEATURES.length;
  const classes = GENRES.length;
  const mean = new Array<number>(size).fill(0);
  const sd = new Array<number>(size).fill(0);
  for (const row of features) for (let j = 0; j < size; j++) mean[j] = (mean[j] ?? 0) + (row[j] ?? 0) / features.length;
  for (const row of features) for (let j = 0; j < size; j++) sd[j] = (sd[j] ?? 0) + ((row[j] ?? 0) - (mean[j] ?? 0)) ** 2 / features.length;
  for (let j = 0; j < size; j++) sd[j] = Math.sqrt(sd[j] ?? 0) || 1;
  const x = features.map((row) => Float64Array.from({ length: size }, (_, j) => ((row[j] ?? 0) - (mean[j] ?? 0)) / (sd[j] ?? 1)));
  const y = genres.map((genre) => GENRES.indexOf(genre));
  const counts = GENRES.map((_, c) => y.filter((label) => label === c).length);
  const present = counts.filter((count) => count > 0).length;
  const weightOf = (label: number): number => features.length / (present * Math.max(counts[label] ?? 1, 1));
  const width = size + 1;
  const objective = (parameters: Float64Array, gradient: Float64Array): number => {
    gradient.fill(0);
    let loss = 0;
    const logits = new Float64Array(classes);
    x.forEach((row, r) => {
      const label = y[r] ?? 0;
      const weight = weightOf(label);
      for (let c = 0; c < classes; c++) {
        let z = parameters[c * width + size] ?? 0;
        for (let j = 0; j < size; j++) z += (parameters[c * width + j] ?? 0) * (row[j] ?? 0);
        logits[c] = z;
      }
      const top = Math.max(...logits);
      let total = 0;
      for (let c = 0; c < classes; c++) total += Math.exp((logits[c] ?? 0) - top);
      loss -= weight * ((logits[label] ?? 0) - top - Math.log(total));
      for (let c = 0; c < classes; c++) {
        const residual = weight * (Math.exp((logits[c] ?? 0) - top) / total - (c === label ? 1 : 0));
        for (let j = 0; j < size; j++) gradient[c * width + j] = (gradient[c * width + j] ?? 0) + residual * (row[j] ?? 0);
        gradient[c * width + size] = (gradient[c * width + size] ?? 0) + residual;
      }
    });
    let penalty = 0;
    for (let k = 0; k < parameters.length; k++) {
      gradient[k] = (gradient[k] ?? 0) / x.length;
      if (k % width === size) continue;
      const w = parameters[k] ?? 0;
      penalty += w * w;
      gradient[k] = (gradient[k] ?? 0) + l2 * w;
    }
    return loss / x.length + (l2 / 2) * penalty;
  };
  const result = minimize(objective, new Float64Array(classes * width), { maxIterations: 500 });
  const round = (value: number): number => Number(value.toPrecision(5));
  return {
    mean: mean.map(round),
    sd: sd.map(round),
    weights: GENRES.map((_, c) => Array.from({ length: width }, (_, j) => round(result.x[c * width + j] ?? 0))),
  };
}

/** Share of texts whose most likely kind is their own, per kind. */
export function genreAccuracy(model: GenreModel, features: readonly Float64Array[], genres: readonly Genre[]): Record<string, number> {
  const right = new Map<Genre, [number, number]>();
  features.forEach((row, i) => {
    const probabilities = genreProbabilities(model, row);
    let best = 0;
    probabilities.forEach((p, c) => {
      if (p > (probabilities[best] ?? 0)) best = c;
    });
    const genre = genres[i] ?? 'personal';
    const [ok, all] = right.get(genre) ?? [0, 0];
    right.set(genre, [ok + (GENRES[best] === genre ? 1 : 0), all + 1]);
  });
  return Object.fromEntries([...right].map(([genre, [ok, all]]) => [genre, ok / Math.max(all, 1)]));
}
