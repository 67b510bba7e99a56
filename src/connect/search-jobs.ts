import type { Db } from '../db/client.ts';
import type { Job } from '../jobs/queue.ts';
import type { TextPool } from '../personality/text/pool.ts';
import { storedSearch } from './criteria.ts';
import { resolveProfile } from './profile-search.ts';
import { finishRequests, pendingInputs, type RequestOutcome } from './requests.ts';

function requestIdOf(job: Job): string | null {
  const id = job.payload.request_id;
  return typeof id === 'string' ? id : null;
}

/**
 * The background step of Connect searches, a batch at a time: read the inputs of the batch's
 * unfinished requests in one statement, resolve each, write all outcomes in one statement.
 * A request already finished (a job run twice after a crash) is skipped.
 */
export function profileSearchJobs(deps: { db: Db; text: Pick<TextPool, 'analyze'> }) {
  return {
    async run(jobs: readonly Job[]): Promise<Map<string, string>> {
      const failures = new Map<string, string>();
      const ids = jobs.flatMap((job) => requestIdOf(job) ?? []);
      const inputs = await pendingInputs(deps.db, ids);
      const outcomes: Array<{ id: string; outcome: RequestOutcome }> = [];
      for (const job of jobs) {
        const id = requestIdOf(job);
        const input = id ? storedSearch(inputs.get(id)) : null;
        if (!id || !input) continue;
        try {
          outcomes.push({ id, outcome: await resolveProfile(deps.db, input, deps.text, { background: true }) });
        } catch (error) {
          failures.set(job.id, error instanceof Error ? error.message : String(error));
        }
      }
      await finishRequests(deps.db, outcomes);
      return failures;
    },
    /** After repeated failures the caller still gets an answer: status error. */
    async giveUp(job: Job): Promise<void> {
      const id = requestIdOf(job);
      if (id) await finishRequests(deps.db, [{ id, outcome: { status: 'error', error: 'The search could not be completed; please start it again.' } }]);
    },
  };
}
