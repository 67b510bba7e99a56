import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { enqueueJob } from '../../src/jobs/queue.ts';
import { useTestDb } from '../helpers/db.ts';
import { REPO_ROOT } from '../helpers/process.ts';

// Worker processes share a PostgreSQL server; the embedded database admits one process.
const onPostgres = Boolean(process.env.DATABASE_URL);

function startWorker(url: string): { child: ChildProcess; output: () => string; waitFor: (text: string) => Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'test/fixtures/job-worker.ts')], {
    env: { ...process.env, DATABASE_URL: url, LEASE_SECONDS: '2' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const waitFor = async (text: string) => {
    for (let i = 0; i < 300 && !output.includes(text); i += 1) await new Promise((r) => setTimeout(r, 100));
    if (!output.includes(text)) throw new Error(`worker never printed ${text}: ${output}`);
  };
  return { child, output: () => output, waitFor };
}

describe.skipIf(!onPostgres)('kill -9 of a worker mid-job', () => {
  const testDb = useTestDb();
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  });

  it('leaves the job to another worker, which finishes it once the lease ends', async () => {
    const url = testDb.url ?? '';
    const first = startWorker(url);
    children.push(first.child);
    await first.waitFor('READY');
    const id = await enqueueJob(testDb.db, 'test_sleep', { ms: 60_000 });
    await first.waitFor(`STARTED ${id}`);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    const second = startWorker(url);
    children.push(second.child);
    await second.waitFor('READY');
    await second.waitFor(`STARTED ${id}`);
    let row: { status: string; attempts: number; finished_by: number | null } | undefined;
    for (let i = 0; i < 100; i += 1) {
      row = (await testDb.db.query<{ status: string; attempts: number; finished_by: number | null }>("SELECT status, attempts, (payload->>'finished_by')::int AS finished_by FROM jobs WHERE id = $1", [id]))[0];
      if (row?.status === 'done') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(row).toMatchObject({ status: 'done', attempts: 2, finished_by: second.child.pid });
    second.child.kill('SIGTERM');
  }, 90_000);
});
