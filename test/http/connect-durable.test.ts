import { beforeAll, describe, expect, it } from 'vitest';
import { readSearch } from '../../src/connect/criteria.ts';
import { PROFILE_SEARCH_JOB, searchSync } from '../../src/connect/profile-search.ts';
import type { Db } from '../../src/db/client.ts';
import { purgeRequests } from '../../src/connect/requests.ts';
import { createContext } from '../../src/context.ts';
import { claimJobs } from '../../src/jobs/batch.ts';
import { releaseOrphanedJobs } from '../../src/jobs/queue.ts';
import { analyzeTexts } from '../../src/people/analyze.ts';
import { upsertPerson } from '../../src/people/repository.ts';
import { validatePersonRecord } from '../../src/people/validate.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { OUTGOING_TEXT } from '../fixtures/texts.ts';
import { useTestService } from '../helpers/service.ts';
import { inOneRateWindow } from '../helpers/minute-window.ts';

// No worker in the API process: jobs wait until a "worker process" (a second context) starts,
// as after a restart, or with separate `rapport worker` processes.
const service = useTestService({ RAPPORT_IN_PROCESS_WORKER: 'false' });
let org: { 'x-org-token': string };

beforeAll(async () => {
  org = { 'x-org-token': (await service.token('connect')).secret };
  const validated = validatePersonRecord({ first_name: 'Ada', last_name: 'Brightwater', email: 'ada.brightwater@example.com', texts: [{ type: 'various', text: OUTGOING_TEXT }] });
  if (!validated.ok) throw new Error(validated.reason);
  await upsertPerson(service.ctx.db, validated.input, { source: 'import', analyze: (texts) => analyzeTexts(service.ctx.model, texts) });
});

const result = (id: string) => service.connect.inject({ url: `/v1/profiles/results/${id}`, headers: org });

async function startWorkerUntil(id: string): Promise<void> {
  const worker = createContext(service.ctx.config, service.ctx.db, createLogger('silent'), { runJobs: true });
  try {
    const deadline = performance.now() + 25_000;
    while (performance.now() < deadline) {
      if ((await result(id)).json().status !== 'processing') return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the worker did not finish the job');
  } finally {
    await worker.shutdown();
  }
}

describe('durable profile requests', () => {
  it('a sync search past its time limit is stored and queued, and its id completes once a worker runs', async () => {
    // A database that answers the person lookup slowly: the search cannot finish in 20 ms.
    const db = service.ctx.db;
    const slow: Db = Object.create(db) as Db;
    slow.run = async (prepared, params) => {
      if (/FROM people/.test(prepared.sql)) await new Promise((resolve) => setTimeout(resolve, 200));
      return db.run(prepared, params);
    };
    const tokenId = (await service.ctx.auth.authenticate(org['x-org-token'], 'connect')).id;
    const input = readSearch({ email: 'ada.brightwater@example.com' }, 'sync');
    const { id, outcome } = await searchSync({ db: slow, wakeWorker: () => undefined, syncTimeoutMs: 20, text: service.ctx.textPool, finished: service.ctx.finishedRequests }, tokenId, input);
    expect(outcome).toBeNull();
    expect((await result(id)).json()).toEqual({ status: 'processing', request_id: id });
    await startWorkerUntil(id);
    expect((await result(id)).json()).toMatchObject({ status: 'complete', info: { first_name: 'Ada' } });
  });

  it('a queued async search survives a restart, and a job left running by a killed worker is run again', async () => {
    const queued = (await service.connect.inject({ method: 'POST', url: '/v1/profiles/async', headers: org, payload: { first_name: 'Ada', last_name: 'Brightwater' } })).json().request_id as string;
    const crashed = (await service.connect.inject({ method: 'POST', url: '/v1/profiles/async', headers: org, payload: { email: 'ada.brightwater@example.com' } })).json().request_id as string;
    // A worker claims both and dies (kill -9) before finishing: the jobs stay "running".
    const claimed = await claimJobs(service.ctx.db, PROFILE_SEARCH_JOB, 10, 600);
    expect(claimed.length).toBeGreaterThanOrEqual(2);
    expect((await result(crashed)).json().status).toBe('processing');
    // The restarted service takes back what its dead process held (src/server.ts), then works.
    expect(await releaseOrphanedJobs(service.ctx.db)).toBeGreaterThanOrEqual(2);
    await startWorkerUntil(queued);
    await startWorkerUntil(crashed);
    expect((await result(queued)).json().status).toBe('complete');
    expect((await result(crashed)).json().status).toBe('complete');
    // The text and criteria are not kept once the request has ended.
    const rows = await service.ctx.db.query<{ input: unknown }>('SELECT input FROM profile_requests WHERE id = ANY($1::text[])', [[queued, crashed]]);
    expect(rows.map((r) => r.input)).toEqual([null, null]);
  }, 60_000);

  it('finished requests are purged after the retention period', async () => {
    const id = (await service.connect.inject({ method: 'POST', url: '/v1/profiles/async', headers: org, payload: { email: 'ada.brightwater@example.com' } })).json().request_id as string;
    await startWorkerUntil(id);
    expect(await purgeRequests(service.ctx.db, 7)).toBe(0);
    await service.ctx.db.query("UPDATE profile_requests SET created_at = now() - interval '8 days' WHERE id = $1", [id]);
    expect(await purgeRequests(service.ctx.db, 7)).toBe(1);
    expect((await result(id)).statusCode).toBe(404);
  });

  it('search calls are rate limited and metered like every group C call', async () => {
    const limited = { 'x-org-token': (await service.token('connect', { rateLimitPerMinute: 2, monthlyQuota: null })).secret };
    const call = () => service.connect.inject({ method: 'POST', url: '/v1/profiles/async', headers: limited, payload: { email: 'ada.brightwater@example.com' } });
    await inOneRateWindow();
    expect((await call()).statusCode).toBe(202);
    expect((await call()).statusCode).toBe(202);
    const refused = await call();
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});
