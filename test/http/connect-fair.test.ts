import { beforeAll, describe, expect, it } from 'vitest';
import { readSearch } from '../../src/connect/criteria.ts';
import { PROFILE_SEARCH_JOB, searchAsync } from '../../src/connect/profile-search.ts';
import { profileSearchJobs } from '../../src/connect/search-jobs.ts';
import { JobWorker } from '../../src/jobs/worker.ts';
import { analyzeTexts } from '../../src/people/analyze.ts';
import { upsertPerson } from '../../src/people/repository.ts';
import { validatePersonRecord } from '../../src/people/validate.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { OUTGOING_TEXT } from '../fixtures/texts.ts';
import { useTestService } from '../helpers/service.ts';

// No worker in the API process: the test runs the service's worker itself, to see its batches.
const service = useTestService({ RAPPORT_IN_PROCESS_WORKER: 'false' });
let busy: { id: string; secret: string };
let small: { 'x-org-token': string };

beforeAll(async () => {
  busy = await service.token('connect', { rateLimitPerMinute: null, monthlyQuota: null });
  small = { 'x-org-token': (await service.token('connect')).secret };
  const validated = validatePersonRecord({ first_name: 'Ada', last_name: 'Brightwater', email: 'ada.brightwater@example.com', texts: [{ type: 'various', text: OUTGOING_TEXT }] });
  if (!validated.ok) throw new Error(validated.reason);
  await upsertPerson(service.ctx.db, validated.input, { source: 'import', analyze: (texts) => analyzeTexts(service.ctx.model, texts) });
}, 120_000);

const result = (id: string) => service.connect.inject({ url: `/v1/profiles/results/${id}`, headers: small });
const until = async (done: () => boolean | Promise<boolean>) => {
  for (let i = 0; i < 1200 && !(await done()); i++) await new Promise((resolve) => setTimeout(resolve, 25));
};

describe('Connect searches are fair between organisations', () => {
  it('one organisation’s backlog of 2,000 async searches does not hold another’s single search', async () => {
    const deps = { db: service.ctx.db, wakeWorker: () => undefined, syncTimeoutMs: 5000, text: service.ctx.textPool, finished: service.ctx.finishedRequests };
    for (let i = 0; i < 2000; i++) await searchAsync(deps, busy.id, readSearch({ email: `nobody.${i}@example.com` }, 'async'));

    // The service's worker and search step, with each batch's request ids written down.
    const search = profileSearchJobs({ db: service.ctx.db, text: service.ctx.textPool });
    const batches: string[][] = [];
    const worker = new JobWorker(service.ctx.db, createLogger('silent'), { pollIntervalMs: 50 });
    worker.registerBatch(PROFILE_SEARCH_JOB, (jobs) => {
      batches.push(jobs.map((job) => String(job.payload.request_id)));
      return search.run(jobs);
    }, search.giveUp);
    worker.start();
    let id = '';
    let claimedBefore = 0;
    let claimedWhenQueued = 0;
    try {
      await until(() => batches.length > 0);
      // The backlog is being worked on when the other organisation asks. Batches claimed before
      // the request was sent cannot hold it; one claimed while it is being queued may or may not.
      claimedBefore = batches.length;
      const response = await service.connect.inject({ method: 'POST', url: '/v1/profiles/async', headers: small, payload: { email: 'ada.brightwater@example.com' } });
      expect(response.statusCode).toBe(202);
      // The 202 comes once the search is stored: from here on, the next claim must take it.
      claimedWhenQueued = batches.length;
      id = response.json().request_id as string;
      worker.wake();
      await until(async () => (await result(id)).json().status !== 'processing');
    } finally {
      await worker.stop();
    }
    expect((await result(id)).json()).toMatchObject({ status: 'complete', info: { first_name: 'Ada' } });
    // In the first batch claimed after the search was stored, or the one after if that claim was
    // already under way: never behind the backlog. (Storing it can take several batches' time on
    // a loaded machine, so the bound counts from the 202, not from when the request was sent.)
    const batch = batches.findIndex((ids) => ids.includes(id));
    expect(batch).toBeGreaterThanOrEqual(claimedBefore);
    expect(batch).toBeLessThanOrEqual(claimedWhenQueued + 1);
    // Batches of 100, round robin: it shared its batch with the backlog, most of which came after.
    expect(batches[batch]).toHaveLength(100);
    expect(batches.slice(0, batch + 1).flat().length).toBeLessThan(2000);
  }, 180_000);
});
