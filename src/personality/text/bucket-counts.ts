/**
 * A text's hashed n-gram counts (features.ts), kept in the order each bucket was first counted.
 *
 * The model's sums over the buckets (predict.ts) run in that order, as they did over the
 * insertion-ordered Map these counts were held in before, so every floating-point result is the
 * same. An open-addressing table of typed arrays, sized to the text, instead of a Map: a text
 * of N words adds about 2N counts, and a Map's get and set for each cost more than the rest of
 * the feature pass.
 */
export class BucketCounts {
  /** Buckets in the order they were first counted; `counts[i]` is `buckets[i]`'s count. */
  buckets: Int32Array;
  counts: Int32Array;
  size = 0;
  /** Slot → 1 + the bucket's index in `buckets`, 0 for an empty slot. */
  private slots: Int32Array;

  constructor(expected: number) {
    const capacity = Math.max(16, expected);
    this.buckets = new Int32Array(capacity);
    this.counts = new Int32Array(capacity);
    // At most half full: linear probing stays short.
    this.slots = new Int32Array(tableSizeFor(capacity));
  }

  /** Counts one more of `bucket` (a non-negative integer below 2³¹). */
  add(bucket: number): void {
    const mask = this.slots.length - 1;
    // Buckets are hashes already (FNV-1a, Murmur's finaliser): their low bits spread well.
    let slot = bucket & mask;
    for (;;) {
      const entry = this.slots[slot] ?? 0;
      if (entry === 0) break;
      if (this.buckets[entry - 1] === bucket) {
        this.counts[entry - 1] = (this.counts[entry - 1] ?? 0) + 1;
        return;
      }
      slot = (slot + 1) & mask;
    }
    if (this.size === this.buckets.length) {
      this.grow();
      this.add(bucket);
      return;
    }
    this.buckets[this.size] = bucket;
    this.counts[this.size] = 1;
    this.size++;
    this.slots[slot] = this.size;
  }

  /** The count of `bucket`, 0 when it was never counted. */
  get(bucket: number): number {
    const mask = this.slots.length - 1;
    for (let slot = bucket & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot] ?? 0;
      if (entry === 0) return 0;
      if (this.buckets[entry - 1] === bucket) return this.counts[entry - 1] ?? 0;
    }
  }

  /** The same counts as a Map in the same order (what training reads). */
  toMap(): Map<number, number> {
    const map = new Map<number, number>();
    for (let i = 0; i < this.size; i++) map.set(this.buckets[i] ?? 0, this.counts[i] ?? 0);
    return map;
  }

  private grow(): void {
    const capacity = this.buckets.length * 2;
    const buckets = new Int32Array(capacity);
    buckets.set(this.buckets);
    const counts = new Int32Array(capacity);
    counts.set(this.counts);
    this.buckets = buckets;
    this.counts = counts;
    this.slots = new Int32Array(tableSizeFor(capacity));
    const mask = this.slots.length - 1;
    for (let i = 0; i < this.size; i++) {
      let slot = (buckets[i] ?? 0) & mask;
      while ((this.slots[slot] ?? 0) !== 0) slot = (slot + 1) & mask;
      this.slots[slot] = i + 1;
    }
  }
}

/** The smallest power of two at least twice `entries`. */
function tableSizeFor(entries: number): number {
  let size = 32;
  while (size < entries * 2) size *= 2;
  return size;
}
