import { describe, expect, it } from 'vitest';
import { claimJobs, completeJobs } from '../../src/jobs/batch.ts';
import { enqueueJob } from '../../src/jobs/queue.ts';
import { useTestDb } from '../helpers/db.ts';

const testDb = useTestDb();

/** Every kind gets its own name so the tests do not see each other's jobs. */
let kindCounter = 0;
const freshKind = () => `batch_${++kindCounter}`;

/** `count` jobs of one owner in one statement, oldest first (created a millisecond apart). */
async function backlog(kind: string, owner: string, count: number): Promise<void> {
  await testDb.db.query(
    `INSERT INTO jobs (id, kind, payload, owner, created_at)
     SELECT $3 || '_' || n, $1, jsonb_build_object('n', n), $2, now() - interval '1 hour' + n * interval '1 millisecond'
     FROM generate_series(1, $4::int) AS n`,
    [kind, owner, `job_${kind}_${owner}`, count],
  );
}

async function ownersOf(ids: readonly string[]): Promise<Map<string, string>> {
  const rows = await testDb.db.query<{ id: string; owner: string }>('SELECT id, owner FROM jobs WHERE id = ANY($1::text[])', [[...ids]]);
  return new Map(rows.map((row) => [row.id, row.owner]));
}

const countBy = (values: Iterable<string>) => {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
};

describe('fair batch claims', () => {
  it('one owner’s backlog of 2,000 and another owner’s single job: the single job is in the next batch', async () => {
    const kind = freshKind();
    await backlog(kind, 'tok_big', 2000);
    const small = await enqueueJob(testDb.db, kind, { who: 'small' }, 'tok_small');
    const batch = await claimJobs(testDb.db, kind, 100, 60);
    expect(batch).toHaveLength(100);
    expect(batch.map((job) => job.id)).toContain(small);
    // The backlog's share of the batch is its 99 oldest jobs, in the order they were queued.
    const big = batch.filter((job) => job.id !== small).map((job) => Number(job.payload.n));
    expect(big.sort((a, b) => a - b)).toEqual(Array.from({ length: 99 }, (_, i) => i + 1));
    expect(batch.every((job) => job.attempts === 1)).toBe(true);
  });

  it('owners take turns round robin: every owner’s first job, then every owner’s second…', async () => {
    const kind = freshKind();
    await backlog(kind, 'tok_a', 5);
    await backlog(kind, 'tok_b', 5);
    await backlog(kind, 'tok_c', 1);
    const first = await claimJobs(testDb.db, kind, 6, 60);
    const owners = await ownersOf(first.map((job) => job.id));
    // Round 1 is a, b and c; round 2 is a and b; one place left in round 3.
    const counts = countBy(owners.values());
    expect(counts.get('tok_c')).toBe(1);
    expect([counts.get('tok_a'), counts.get('tok_b')].sort()).toEqual([2, 3]);
    // Within a round the owner served longest ago goes first: the one left with 2 has the place now.
    const second = await claimJobs(testDb.db, kind, 1, 60);
    const behind = (counts.get('tok_a') ?? 0) < (counts.get('tok_b') ?? 0) ? 'tok_a' : 'tok_b';
    expect([...(await ownersOf(second.map((job) => job.id))).values()]).toEqual([behind]);
  });

  it('with batches of one, owners alternate, nobody twice in a row while another waits', async () => {
    const kind = freshKind();
    await backlog(kind, 'tok_a', 4);
    await backlog(kind, 'tok_b', 4);
    const order: string[] = [];
    for (let i = 0; i < 8; i += 1) {
      const [job] = await claimJobs(testDb.db, kind, 1, 60);
      if (!job) break;
      order.push((await ownersOf([job.id])).get(job.id) ?? '');
      await completeJobs(testDb.db, [job.id]);
    }
    expect(order).toHaveLength(8);
    for (let i = 1; i < 8; i += 1) expect(order[i]).not.toBe(order[i - 1]);
  });

  it('owners whose jobs are all running do not shrink the batch', async () => {
    const kind = freshKind();
    for (let i = 0; i < 20; i += 1) await enqueueJob(testDb.db, kind, {}, `tok_busy_${i}`);
    expect(await claimJobs(testDb.db, kind, 100, 600)).toHaveLength(20);
    await backlog(kind, 'tok_big', 300);
    const batch = await claimJobs(testDb.db, kind, 100, 600);
    expect(batch).toHaveLength(100);
  });

  it('skips jobs in back-off and jobs whose lease runs; takes jobs whose lease ran out', async () => {
    const kind = freshKind();
    const later = await enqueueJob(testDb.db, kind, {}, 'tok_a');
    await testDb.db.query("UPDATE jobs SET run_after = now() + interval '1 hour' WHERE id = $1", [later]);
    const held = await enqueueJob(testDb.db, kind, {}, 'tok_b');
    const expired = await enqueueJob(testDb.db, kind, {}, 'tok_c');
    expect((await claimJobs(testDb.db, kind, 10, 600)).map((job) => job.id).sort()).toEqual([expired, held].sort());
    await testDb.db.query("UPDATE jobs SET lease_until = now() - interval '1 second' WHERE id = $1", [expired]);
    const again = await claimJobs(testDb.db, kind, 10, 600);
    expect(again).toEqual([expect.objectContaining({ id: expired, attempts: 2 })]);
    expect(await claimJobs(testDb.db, kind, 10, 600)).toEqual([]);
  });

  it('claims made at the same moment never hand out one job twice', async () => {
    const kind = freshKind();
    for (const owner of ['tok_a', 'tok_b', 'tok_c']) await backlog(kind, owner, 20);
    const claims = await Promise.all(Array.from({ length: 8 }, () => claimJobs(testDb.db, kind, 5, 60)));
    const ids = claims.flat().map((job) => job.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (let batch = await claimJobs(testDb.db, kind, 7, 60); batch.length > 0; batch = await claimJobs(testDb.db, kind, 7, 60)) {
      ids.push(...batch.map((job) => job.id));
    }
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
  });
});
