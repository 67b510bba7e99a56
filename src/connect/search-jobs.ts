import type { Db } from '../db/client.ts';
import type { Job } from '../jobs/queue.ts';
import type { TextPool } from '../personality/text/pool.ts';
import { emitWebhookEvents } from '../webhooks/events.ts';

import { storedSearch } from './criteria.ts';
import { resolveProfile } from './profile-search.ts';
import { finishRequests, pendingInputs, type FinishedNow, type RequestOutcome } from './requests.ts';

function requestIdOf(job: Job): string | null {
  const id = job.payload.request_id;
  return typeof id === 'string' ? id : null;
}

/**
 * Records outcomes with their `connect.search.finished` webhooks, in one transaction: a search
 * is finished exactly when its webhook is queued. Wakes the worker when one was.
 */
async function finish(deps: SearchJobDeps, outcomes: ReadonlyArray<{ id: string; outcome: RequestOutcome }>): Promise<void> {
  if (outcomes.length === 0) return;
  const queued = await deps.db.transaction(async (tx) => {
    const finished = await finishRequests(tx, outcomes);
    return emitWebhookEvents(tx, finished.map(searchFinished));
  });
  if (queued > 0) deps.wake?.();
}

/** The event's data: the request id to read the result with, and how it ended (complete, not_found or error). */
function searchFinished(request: FinishedNow) {
  return { owner: { tokenId: request.tokenId }, type: 'connect.search.finished' as const, data: { request_id: request.id, status: request.status } };
}

export interface SearchJobDeps {
  db: Db;
  /** Reads the searches' text samples, in the pool's threads (a queued search waits its turn). */
  text: Pick<TextPool, 'analyze'>;
  /** Tells the worker a webhook is waiting to be sent. */
  wake?: () => void;
}

/**
 * The background step of Connect searches, a batch at a time: read the inputs of the batch's
 * unfinished requests in one statement, resolve each, write all outcomes in one statement.
 * A request already finished (a job run twice after a crash) is skipped.
 */
export function profileSearchJobs(deps: SearchJobDeps) {
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
      await finish(deps, outcomes);
      return failures;
    },
    /** After repeated failures the caller still gets an answer: status error. */
    async giveUp(job: Job): Promise<void> {
      const id = requestIdOf(job);
      if (id) await finish(deps, [{ id, outcome: { status: 'error', error: 'The search could not be completed; please start it again.' } }]);
    },
  };
}
