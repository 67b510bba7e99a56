/**
 * The model's n-gram bucket → row of its weights, for the ~11,000 buckets that have weights out
 * of the 2^hashBits a text's n-grams hash into. A direct table (one entry per bucket: 4 MB at 20
 * bits) made nearly every look-up a cache miss, the costliest line of a reading; this one keeps
 * (bucket, row) pairs side by side in an open-addressing table of 256 KB, so
 * a look-up reads one cache line, and most buckets a text holds (bigrams never trained) end at
 * an empty slot.
 */
export class BucketRows {
  /** Slot s holds bucket `pairs[2s]` (-1: empty) and its row `pairs[2s + 1]`. */
  private readonly pairs: Int32Array;
  private readonly mask: number;

  /** @param buckets `buckets[row]` is the row's bucket; a bucket listed twice has the later row, as a direct table would give. */
  constructor(buckets: ArrayLike<number>) {
    let slots = 16;
    // At most half full (a third for the shipped model's 11,356 buckets: 256 KB): probes stay short.
    while (slots < buckets.length * 2) slots *= 2;
    this.mask = slots - 1;
    this.pairs = new Int32Array(slots * 2).fill(-1);
    for (let row = 0; row < buckets.length; row++) {
      const bucket = buckets[row] ?? 0;
      let slot = bucket & this.mask;
      while ((this.pairs[2 * slot] ?? -1) !== -1 && this.pairs[2 * slot] !== bucket) slot = (slot + 1) & this.mask;
      this.pairs[2 * slot] = bucket;
      this.pairs[2 * slot + 1] = row;
    }
  }

  /** The bucket's row, or -1 when the model has no weights for it. */
  rowOf(bucket: number): number {
    // Buckets are hashes already (FNV-1a, Murmur's finaliser): their low bits spread well.
    for (let slot = bucket & this.mask; ; slot = (slot + 1) & this.mask) {
      const held = this.pairs[2 * slot] ?? -1;
      if (held === bucket) return this.pairs[2 * slot + 1] ?? -1;
      if (held === -1) return -1;
    }
  }
}
