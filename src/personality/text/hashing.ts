/**
 * Feature hashing for word n-grams: a word or word pair maps to a bucket by a fixed
 * hash, so the model needs no vocabulary file and unseen words cost nothing. A
 * bigram's hash is derived from its two word hashes, so no pair string is ever built
 * on the hot path.
 */

/** FNV-1a's offset basis and prime (32 bits): the tokenizer hashes words as it reads them with these. */
export const FNV_OFFSET = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;

/** 32-bit FNV-1a over UTF-16 code units. */
export function hashWord(word: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < word.length; i++) {
    hash ^= word.charCodeAt(i);
    hash = Math.imul(hash, FNV_PRIME);
  }
  return hash >>> 0;
}

/** Murmur3's finaliser: spreads the bits so that nearby inputs land far apart. */
function mix(value: number): number {
  let h = value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Order matters ("not happy" differs from "happy not"), hence the asymmetric combination. */
export function hashBigram(firstHash: number, secondHash: number): number {
  return mix((Math.imul(firstHash, 0x9e3779b1) ^ secondHash) + 0x7f4a7c15);
}

export function bucketOf(hash: number, hashBits: number): number {
  return hash & ((1 << hashBits) - 1);
}
