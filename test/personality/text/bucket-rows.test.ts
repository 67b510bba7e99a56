import { describe, expect, it } from 'vitest';
import { BucketRows } from '../../../src/personality/text/bucket-rows.ts';
import { loadModel } from '../../../src/personality/text/model.ts';
import { seededRandom } from '../../../training/random.ts';

/** predict.ts reads a text's n-gram weights through this table: a wrong or missing row would move scores only for texts holding that n-gram. */
describe('BucketRows', () => {
  it('gives every bucket the row a direct table gives, and -1 to the rest', () => {
    const next = seededRandom(5);
    const bits = 20;
    // Clusters of neighbouring buckets (long probe runs) and scattered ones; one listed twice, the later row holding.
    const buckets = [
      ...Array.from({ length: 3000 }, () => Math.floor(next() * (1 << bits))),
      ...Array.from({ length: 500 }, (_, i) => 4096 + i),
      0,
      (1 << bits) - 1,
      4100,
    ];
    const direct = new Int32Array(1 << bits).fill(-1);
    buckets.forEach((bucket, row) => {
      direct[bucket] = row;
    });
    const rows = new BucketRows(buckets);
    for (let bucket = 0; bucket < 1 << bits; bucket++) {
      if (rows.rowOf(bucket) !== direct[bucket]) expect.fail(`bucket ${bucket}: ${rows.rowOf(bucket)}, direct table ${direct[bucket]}`);
    }
    expect(rows.rowOf(4100)).toBe(buckets.length - 1);
  });

  it('holds every bucket of the shipped model at its row', () => {
    const model = loadModel();
    let bucket = 0;
    model.file.ngramBuckets.forEach((gap, row) => {
      bucket += gap;
      if (model.rowOfBucket.rowOf(bucket) !== row) expect.fail(`bucket ${bucket} should be row ${row}`);
    });
  });
});
