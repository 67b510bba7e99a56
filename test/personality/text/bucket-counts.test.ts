import { describe, expect, it } from 'vitest';
import { BucketCounts } from '../../../src/personality/text/bucket-counts.ts';
import { seededRandom } from '../../../training/random.ts';

/** The model's sums run over the counts in this order: it must be a Map's insertion order, and the counts a Map's. */
describe('BucketCounts', () => {
  it('counts as a Map does, in the order buckets were first counted, through collisions and growth', () => {
    const next = seededRandom(3);
    // Few distinct buckets sharing low bits (collisions in the table), many repeats, more than the expected size (growth).
    const adds = Array.from({ length: 5000 }, () => (Math.floor(next() * 300) << 12) | 7);
    const counts = new BucketCounts(10);
    const map = new Map<number, number>();
    for (const bucket of adds) {
      counts.add(bucket);
      map.set(bucket, (map.get(bucket) ?? 0) + 1);
    }
    expect(counts.size).toBe(map.size);
    expect([...counts.toMap()]).toEqual([...map]);
    expect(Array.from(counts.buckets.subarray(0, counts.size))).toEqual([...map.keys()]);
    for (const [bucket, count] of map) expect(counts.get(bucket)).toBe(count);
    expect(counts.get(1 << 30)).toBe(0);
  });

  it('holds bucket 0 and the largest 20-bit bucket apart', () => {
    const counts = new BucketCounts(2);
    for (const bucket of [0, (1 << 20) - 1, 0, 32, 0]) counts.add(bucket);
    expect([...counts.toMap()]).toEqual([
      [0, 3],
      [(1 << 20) - 1, 1],
      [32, 1],
    ]);
  });
});
