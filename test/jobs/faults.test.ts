import { beforeEach, describe, expect, it } from 'vitest';
import { claimJob, completeJob, enqueueJob, failJob, MAX_ATTEMPTS, releaseOrphanedJobs } from '../../src/jobs/queue.ts';
import { JobWorker } from '../../src/jobs/worker.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { useTestDb } from '../helpers/db.ts';
import { waitUntil } from '../helpers/process.ts';

type JobRow = {
  status: string;
  attempts: number;
  last_error: string | null;
  delay: number | string;
};

describe('background work under faults', () => {
  const testDb = useTestDb();
  beforeEach(async () => {
    await testDb.db.query('DELETE FROM jobs');
  });

  const row = async (id: string) =>
    (
      await testDb.db.query<JobRow>('SELECT status, attempts, last_error, EXTRACT(EPOCH FROM (run_after - now())) AS delay FROM jobs WHERE id = $1', [id])
    )[0];
  const makeDue = (id: string) => testDb.db.query('UPDATE jobs SET run_after = now() WHERE id = $1', [id]);
  /** Runs the worker, making the job due again after each back-off, until a job was given up (10 s at most). */
  const runUntilGivenUp = async (worker: JobWorker, id: string, givenUp: readonly unknown[]) => {
    worker.start();
    try {
      for (let i = 0; i < 200 && givenUp.length === 0; i += 1) {
        await new Promise((r) => setTimeout(r, 50));
        await makeDue(id);
      }
    } finally {
      await worker.stop();
    }
  };

  it('retries a failed job with a growing back-off, then gives up after MAX_ATTEMPTS keeping the error', async () => {
    const id = await enqueueJob(testDb.db, 'test_fault', { n: 1 });
    const delays: number[] = [];
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const job = await claimJob(testDb.db, ['test_fault'], 60);
      expect(job?.id).toBe(id);
      expect(job?.attempts).toBe(attempt);
      const outcome = await failJob(testDb.db, job ?? { id, kind: 'test_fault', payload: {}, attempts: attempt }, `boom ${attempt}`);
      const after = await row(id);
      if (attempt < MAX_ATTEMPTS) {
        expect(outcome).toBe('retry');
        expect(after?.status).toBe('queued');
        delays.push(Number(after?.delay));
        // Not claimable before its back-off ends.
        expect(await claimJob(testDb.db, ['test_fault'], 60)).toBeNull();
        await makeDue(id);
      } else {
        expect(outcome).toBe('failed');
        expect(after).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, last_error: `boom ${MAX_ATTEMPTS}` });
      }
    }
    expect(delays[0]).toBeGreaterThan(1);
    expect(delays[1]).toBeGreaterThan(delays[0] ?? Infinity);
    // A failed job is never claimed again.
    expect(await claimJob(testDb.db, ['test_fault'], 60)).toBeNull();
  });

  it('logs one line per claim: the kind, the job, how many failed, never the payload', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const worker = new JobWorker(testDb.db, logger, { pollIntervalMs: 20 });
    let runs = 0;
    worker.register('test_logged', async () => {
      runs += 1;
      if (runs === 1) throw new Error('first try fails');
    });
    const id = await enqueueJob(testDb.db, 'test_logged', { secret: 'a caller text' });
    worker.start();
    try {
      // The first try failed and was put back with a back-off: made due at once.
      const putBack = async () => {
        const now = await row(id);
        return now?.attempts === 1 && now.status === 'queued';
      };
      for (let i = 0; i < 250 && !(await putBack()); i += 1) await new Promise((r) => setTimeout(r, 20));
      await makeDue(id);
      expect(await waitUntil(() => lines.filter((line) => line.msg === 'jobs run').length >= 2, 5000)).toBe(true);
    } finally {
      await worker.stop();
    }
    const runLines = lines.filter((line) => line.msg === 'jobs run');
    expect(runLines.map(({ kind, job_id, attempt, jobs, failed }) => ({ kind, job_id, attempt, jobs, failed }))).toEqual([
      { kind: 'test_logged', job_id: id, attempt: 1, jobs: 1, failed: 1 },
      { kind: 'test_logged', job_id: id, attempt: 2, jobs: 1, failed: 0 },
    ]);
    expect(runLines.every((line) => typeof line.ms === 'number')).toBe(true);
    expect(JSON.stringify(lines)).not.toContain('a caller text');
  });

  it('tells the owner once when the worker gives up, with the last error', async () => {
    const worker = new JobWorker(testDb.db, createLogger('silent'), { pollIntervalMs: 50 });
    const givenUp: Array<{ id: string; error: string }> = [];
    let runs = 0;
    worker.register(
      'test_always_fails',
      async () => {
        runs += 1;
        throw new Error(`attempt ${runs} failed`);
      },
      async (job, error) => {
        givenUp.push({ id: job.id, error });
      },
    );
    const id = await enqueueJob(testDb.db, 'test_always_fails', {});
    await runUntilGivenUp(worker, id, givenUp);
    expect(runs).toBe(MAX_ATTEMPTS);
    expect(givenUp).toEqual([{ id, error: `attempt ${MAX_ATTEMPTS} failed` }]);
    expect(await row(id)).toMatchObject({ status: 'failed', last_error: `attempt ${MAX_ATTEMPTS} failed` });
  });

  it('a batch: the jobs that succeed are done, the one that fails is retried, then given up with its error', async () => {
    const worker = new JobWorker(testDb.db, createLogger('silent'), { pollIntervalMs: 50 });
    const givenUp: Array<{ id: string; error: string }> = [];
    const batches: string[][] = [];
    worker.registerBatch(
      'test_batch_fault',
      async (jobs) => {
        batches.push(jobs.map((job) => String(job.payload.n)));
        return new Map(jobs.filter((job) => job.payload.n === 'bad').map((job) => [job.id, `bad on attempt ${job.attempts}`]));
      },
      async (job, error) => {
        givenUp.push({ id: job.id, error });
      },
      { batchSize: 10 },
    );
    const good = await Promise.all([1, 2, 3].map((n) => enqueueJob(testDb.db, 'test_batch_fault', { n }, `tok_${n}`)));
    const bad = await enqueueJob(testDb.db, 'test_batch_fault', { n: 'bad' }, 'tok_bad');
    await runUntilGivenUp(worker, bad, givenUp);
    // One batch of all four, then the bad one alone at each retry.
    expect(batches[0]?.sort()).toEqual(['1', '2', '3', 'bad']);
    expect(batches.slice(1)).toEqual(Array.from({ length: MAX_ATTEMPTS - 1 }, () => ['bad']));
    for (const id of good) expect(await row(id)).toMatchObject({ status: 'done', attempts: 1, last_error: null });
    expect(givenUp).toEqual([{ id: bad, error: `bad on attempt ${MAX_ATTEMPTS}` }]);
    expect(await row(bad)).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, last_error: `bad on attempt ${MAX_ATTEMPTS}` });
  });

  it('one worker runs single jobs and batches side by side, and stop() waits for both in hand', async () => {
    const worker = new JobWorker(testDb.db, createLogger('silent'), { pollIntervalMs: 20 });
    const finished: string[] = [];
    // Both handlers wait on one gate: both in hand at once shows they run side by side.
    let started = 0;
    let openGate: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    worker.register('test_side_single', async () => {
      started += 1;
      await gate;
      finished.push('single');
    });
    worker.registerBatch('test_side_batch', async (jobs) => {
      started += 1;
      await gate;
      finished.push(`batch of ${jobs.length}`);
      return new Map();
    }, async () => undefined);
    const single = await enqueueJob(testDb.db, 'test_side_single', {});
    const batch = await Promise.all([1, 2].map(() => enqueueJob(testDb.db, 'test_side_batch', {})));
    worker.start();
    let stopped = false;
    let stopping: Promise<unknown> | null = null;
    try {
      expect(await waitUntil(() => started === 2, 20_000)).toBe(true);
      stopping = worker.stop().then(() => (stopped = true));
      await new Promise((r) => setTimeout(r, 100));
      expect(stopped).toBe(false);
    } finally {
      openGate();
      await (stopping ?? worker.stop());
    }
    expect(finished.sort()).toEqual(['batch of 2', 'single']);
    for (const id of [single, ...batch]) expect(await row(id)).toMatchObject({ status: 'done' });
  });

  it('hands a job to another worker once the lease of the one that took it runs out', async () => {
    const id = await enqueueJob(testDb.db, 'test_lease', {});
    const first = await claimJob(testDb.db, ['test_lease'], 0.5);
    expect(first?.id).toBe(id);
    // The holder is presumed alive while its lease runs.
    expect(await claimJob(testDb.db, ['test_lease'], 60)).toBeNull();
    await new Promise((r) => setTimeout(r, 700));
    const second = await claimJob(testDb.db, ['test_lease'], 60);
    expect(second).toMatchObject({ id, attempts: 2 });
    await completeJob(testDb.db, id);
    expect(await row(id)).toMatchObject({ status: 'done' });
  });

  it('releases jobs left running by a dead process at start, without waiting for their lease', async () => {
    const id = await enqueueJob(testDb.db, 'test_orphan', {});
    expect((await claimJob(testDb.db, ['test_orphan'], 3600))?.id).toBe(id);
    expect(await claimJob(testDb.db, ['test_orphan'], 3600)).toBeNull();
    expect(await releaseOrphanedJobs(testDb.db)).toBe(1);
    expect(await claimJob(testDb.db, ['test_orphan'], 3600)).toMatchObject({ id, attempts: 2 });
  });
});
