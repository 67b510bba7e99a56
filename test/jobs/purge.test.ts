import { describe, expect, it } from 'vitest';
import { startPurging } from '../../src/connect/purge.ts';
import { enqueueJob, purgeFinishedJobs } from '../../src/jobs/queue.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { useTestDb } from '../helpers/db.ts';

const testDb = useTestDb();

/** A job of its own kind, put in a status and aged by `days`. */
async function job(kind: string, status: 'queued' | 'running' | 'done' | 'failed', days: number): Promise<string> {
  const id = await enqueueJob(testDb.db, kind, {});
  await testDb.db.query('UPDATE jobs SET status = $2, updated_at = now() - make_interval(days => $3::integer) WHERE id = $1', [id, status, days]);
  return id;
}

async function left(kind: string): Promise<string[]> {
  const rows = await testDb.db.query<{ status: string }>('SELECT status FROM jobs WHERE kind = $1 ORDER BY status', [kind]);
  return rows.map((r) => r.status);
}

describe('finished jobs are purged after the retention period', () => {
  it('deletes done jobs older than the period; keeps recent ones, unfinished ones and failures with their error', async () => {
    const kind = 'purge_direct';
    await job(kind, 'done', 10);
    await job(kind, 'done', 1);
    await job(kind, 'queued', 10);
    await job(kind, 'running', 10);
    await job(kind, 'failed', 10);
    expect(await purgeFinishedJobs(testDb.db, 7)).toBe(1);
    expect(await left(kind)).toEqual(['done', 'failed', 'queued', 'running']);
    expect(await purgeFinishedJobs(testDb.db, 7)).toBe(0);
  });

  it('the purge a job-running process starts does it at once (and vacuums the table on the embedded database)', async () => {
    const kind = 'purge_started';
    await job(kind, 'done', 30);
    await job(kind, 'done', 30);
    await job(kind, 'failed', 30);
    const stop = startPurging(testDb.db, 7, createLogger('silent'));
    try {
      for (let i = 0; i < 200 && (await left(kind)).length > 1; i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(await left(kind)).toEqual(['failed']);
      // What the purge runs after deleting on the embedded database works there (and on PostgreSQL).
      await expect(testDb.db.exec('VACUUM jobs')).resolves.toBeUndefined();
    } finally {
      stop();
    }
  });
});
