/**
 * A table of entries keyed by a word and its 32-bit FNV-1a hash (hashing.ts hashWord), which the
 * tokenizer computes as it reads the word's letters (tokenizer.ts `wordHashes`).
 *
 * What the lexicon's memo was before, a Map keyed by the word, hashed every word of every text
 * anew: each word is a fresh string cut from the text, whose hash V8 computes on its first
 * look-up, and a fresh key never equals a stored one by identity, so its characters are compared
 * too. Here the hash comes free with the tokenizer's pass, and the stored hashes, in a typed
 * array of their own, turn away every other word before any string is compared.
 *
 * Open addressing with linear probing, at most half full; entries are only added, or all
 * cleared at once.
 */
export class WordMemo<Entry extends { readonly word: string }> {
  /** Slot → the hash of its word (as a signed 32-bit integer); meaningful where `entries` holds one. */
  private hashes: Int32Array;
  private entries: (Entry | undefined)[];
  private count = 0;

  constructor(private readonly initialSlots = 1024) {
    this.hashes = new Int32Array(initialSlots);
    this.entries = new Array<Entry | undefined>(initialSlots).fill(undefined);
  }

  get size(): number {
    return this.count;
  }

  /** The entry of `word`, whose hashWord is `hash`, or undefined. */
  get(word: string, hash: number): Entry | undefined {
    const mask = this.entries.length - 1;
    const key = hash | 0;
    for (let slot = key & mask; ; slot = (slot + 1) & mask) {
      const entry = this.entries[slot];
      if (entry === undefined) return undefined;
      if (this.hashes[slot] === key && entry.word === word) return entry;
    }
  }

  /** Adds an entry for a word not in the table; `hash` is hashWord(entry.word). */
  add(entry: Entry, hash: number): void {
    if (2 * (this.count + 1) > this.entries.length) this.grow();
    this.place(entry, hash | 0);
    this.count++;
  }

  clear(): void {
    this.hashes = new Int32Array(this.initialSlots);
    this.entries = new Array<Entry | undefined>(this.initialSlots).fill(undefined);
    this.count = 0;
  }

  private place(entry: Entry, key: number): void {
    const mask = this.entries.length - 1;
    let slot = key & mask;
    while (this.entries[slot] !== undefined) slot = (slot + 1) & mask;
    this.hashes[slot] = key;
    this.entries[slot] = entry;
  }

  private grow(): void {
    const hashes = this.hashes;
    const entries = this.entries;
    this.hashes = new Int32Array(2 * hashes.length);
    this.entries = new Array<Entry | undefined>(2 * entries.length).fill(undefined);
    for (let slot = 0; slot < entries.length; slot++) {
      const entry = entries[slot];
      if (entry !== undefined) this.place(entry, hashes[slot] ?? 0);
    }
  }
}
