import { describe, expect, it } from 'vitest';
import { claimJob, completeJob, enqueueJob, enqueueJobs } from '../../src/jobs/queue.ts';
import { JobWorker } from '../../src/jobs/worker.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { useTestDb } from '../helpers/db.ts';

const testDb = useTestDb();

/** Every kind gets its own name so the tests do not see each other's jobs. */
let kindCounter = 0;
const freshKind = () => `test_${++kindCounter}`;

async function ownerOf(id: string): Promise<string> {
  const rows = await testDb.db.query<{ owner: string }>('SELECT owner FROM jobs WHERE id = $1', [id]);
  return rows[0]?.owner ?? '';
}

describe('fair job queue', () => {
  it('20 queued jobs of one owner and one of another: the other owner’s job is claimed next', async () => {
    const kind = freshKind();
    for (let i = 0; i < 20; i += 1) await enqueueJob(testDb.db, kind, { n: i }, 'tok_busy');
    const first = await claimJob(testDb.db, [kind], 60);
    expect(first && (await ownerOf(first.id))).toBe('tok_busy');
    const small = await enqueueJob(testDb.db, kind, { n: 'small' }, 'tok_small');
    // tok_busy has one running, tok_small none: tok_small goes first.
    const next = await claimJob(testDb.db, [kind], 60);
    expect(next?.id).toBe(small);
  });

  it('owners with backlogs take turns (round robin), whatever order they queued in', async () => {
    const kind = freshKind();
    for (let i = 0; i < 5; i += 1) await enqueueJob(testDb.db, kind, {}, 'tok_a');
    for (let i = 0; i < 5; i += 1) await enqueueJob(testDb.db, kind, {}, 'tok_b');
    await enqueueJob(testDb.db, kind, {}, 'tok_c');
    const order: string[] = [];
    for (let i = 0; i < 7; i += 1) {
      const job = await claimJob(testDb.db, [kind], 60);
      if (!job) break;
      order.push(await ownerOf(job.id));
      // Finished before the next claim, like a worker with one slot.
      await completeJob(testDb.db, job.id);
    }
    // Every owner is served within the first three claims, and nobody twice in a row while others wait.
    expect(new Set(order.slice(0, 3))).toEqual(new Set(['tok_a', 'tok_b', 'tok_c']));
    for (let i = 1; i < 5; i += 1) expect(order[i]).not.toBe(order[i - 1]);
  });

  it('jobs queued without an owner are still claimed', async () => {
    const kind = freshKind();
    const id = await enqueueJob(testDb.db, kind, { x: 1 });
    const job = await claimJob(testDb.db, [kind], 60);
    expect(job).toMatchObject({ id, kind, payload: { x: 1 }, attempts: 1 });
    expect(await claimJob(testDb.db, [kind], 60)).toBeNull();
  });

  it('claims made at the same moment never hand out one job twice', async () => {
    const kind = freshKind();
    for (let i = 0; i < 12; i += 1) await enqueueJob(testDb.db, kind, {}, `tok_${i % 3}`);
    const claims = await Promise.all(Array.from({ length: 16 }, () => claimJob(testDb.db, [kind], 60)));
    const ids = claims.flatMap((job) => (job ? [job.id] : []));
    expect(new Set(ids).size).toBe(ids.length);
    // Whatever one round missed (a row locked by a neighbour is skipped), the next one gets.
    let more = await claimJob(testDb.db, [kind], 60);
    while (more) {
      ids.push(more.id);
      more = await claimJob(testDb.db, [kind], 60);
    }
    expect(new Set(ids).size).toBe(12);
  });

  it('a worker with one slot runs another token’s job right after the one in hand, not after the backlog', async () => {
    const kind = freshKind();
    const worker = new JobWorker(testDb.db, createLogger('silent'), { concurrency: 1, pollIntervalMs: 20 });
    const ran: string[] = [];
    worker.register(kind, async (job) => {
      ran.push(String(job.payload.who));
      await new Promise((r) => setTimeout(r, 30));
    });
    for (let i = 0; i < 20; i += 1) await enqueueJob(testDb.db, kind, { who: 'busy' }, 'tok_busy');
    worker.start();
    while (ran.length === 0) await new Promise((r) => setTimeout(r, 5));
    await enqueueJob(testDb.db, kind, { who: 'small' }, 'tok_small');
    worker.wake();
    while (!ran.includes('small')) await new Promise((r) => setTimeout(r, 5));
    await worker.stop();
    // At most the job in hand and the one claimed as the small job arrived ran before it.
    expect(ran.indexOf('small')).toBeLessThanOrEqual(2);
  });

  it('runs a job queued for later at its time when asked to (wakeAt), not at the next poll', async () => {
    const kind = freshKind();
    // A poll a minute apart: only the asked-for wake can run the job within the test.
    const worker = new JobWorker(testDb.db, createLogger('silent'), { pollIntervalMs: 60_000 });
    const ran: number[] = [];
    worker.register(kind, async () => {
      ran.push(Date.now());
    });
    worker.start();
    const due = new Date(Date.now() + 200);
    await enqueueJobs(testDb.db, [{ kind, payload: {}, owner: '', runAfter: due }]);
    worker.wakeAt(due);
    // A later time asked for meanwhile does not put the earlier wake off.
    worker.wakeAt(new Date(Date.now() + 30_000));
    const deadline = Date.now() + 10_000;
    while (ran.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await worker.stop();
    expect(ran).toHaveLength(1);
    // Not before its time.
    expect(ran[0]).toBeGreaterThanOrEqual(due.getTime());
  });

  it('forgets an asked-for wake once stopped', async () => {
    const kind = freshKind();
    const worker = new JobWorker(testDb.db, createLogger('silent'), { pollIntervalMs: 60_000 });
    let ran = 0;
    worker.register(kind, async () => {
      ran += 1;
    });
    worker.start();
    const due = new Date(Date.now() + 50);
    await enqueueJobs(testDb.db, [{ kind, payload: {}, owner: '', runAfter: due }]);
    worker.wakeAt(due);
    await worker.stop();
    await new Promise((r) => setTimeout(r, 300));
    expect(ran).toBe(0);
    expect(await claimJob(testDb.db, [kind], 60)).toMatchObject({ kind });
  });
});
