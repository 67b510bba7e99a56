import { bucketOf, hashWord } from '../src/personality/text/hashing.ts';
import { tokenizeProse } from '../src/personality/text/markup.ts';
import { dominantWordClasses } from './word-classes.ts';

/**
 * Hash bucket → the word class of the word that fills it most often in the training
 * texts (buckets are shared by the rare words that collide; the most frequent one names it).
 */
export function bucketWordClasses(texts: readonly string[], hashBits: number): Map<number, string> {
  const wordCounts = new Map<number, Map<string, number>>();
  for (const text of texts) {
    for (const word of tokenizeProse(text).words) {
      const bucket = bucketOf(hashWord(word), hashBits);
      const counts = wordCounts.get(bucket) ?? new Map<string, number>();
      counts.set(word, (counts.get(word) ?? 0) + 1);
      wordCounts.set(bucket, counts);
    }
  }
  const classOfWord = dominantWordClasses(texts);
  const classes = new Map<number, string>();
  for (const [bucket, counts] of wordCounts) {
    let best = '';
    let bestCount = 0;
    for (const [word, count] of counts) {
      if (count > bestCount || (count === bestCount && word < best)) {
        best = word;
        bestCount = count;
      }
    }
    const label = classOfWord.get(best);
    if (label !== undefined) classes.set(bucket, label);
  }
  return classes;
}
