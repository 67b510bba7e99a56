import type { Db, Queryable } from '../db/client.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { combineEstimates } from '../personality/combine.ts';
import type { TextPool } from '../personality/text/pool.ts';
import { findMatch } from '../people/search.ts';
import { AppError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { SearchInput } from './criteria.ts';
import { FinishedRequestWriter } from './finished-writer.ts';
import { findRequest, insertPendingRequest, type FoundProfile, type ProfileRequest, type RequestOutcome } from './requests.ts';

export const PROFILE_SEARCH_JOB = 'profile_search';

export interface ConnectDeps {
  db: Db;
  /** Tells this process's worker, if any, that a job is waiting. */
  wakeWorker: () => void;
  /** How long the synchronous search waits before answering 202 with the request id. */
  syncTimeoutMs: number;
  /** The process's text analysis (ctx.textPool): a long sample is read in a worker thread, off the event loop. */
  text: Pick<TextPool, 'analyze'>;
  /** Stores answered sync searches, many in one statement (ctx.finishedRequests). */
  finished: FinishedRequestWriter;
}

/**
 * Answers one search: the stored person it names, if exactly one (src/people/search.ts), with
 * the text sample folded into what is known of them; with no match, the text sample alone, under
 * the names the caller gave. Nobody found and no usable text (or a match with no personality
 * and no usable text): not found.
 */
export async function resolveProfile(db: Queryable, input: SearchInput, text: Pick<TextPool, 'analyze'>, options: { background?: boolean } = {}): Promise<RequestOutcome> {
  const match = input.firstName !== null || input.email !== null ? await findMatch(db, input) : null;
  // A sample of 100,000 characters takes 60–130 ms to read: long ones go to the text pool's
  // threads, as POST /v1/analysis/text does, so that the event loop keeps answering.
  const analysis =
    input.textSample !== null
      ? await text.analyze(input.textSample, { textType: input.textType ?? undefined, ...(options.background ? { background: true } : {}) })
      : null;
  const fromText = analysis?.ok ? analysis.estimate : null;
  const person = match?.person ?? null;
  if (person) {
    // A tested person's personality is measured; text does not move it.
    const estimate = person.verified && person.estimate ? person.estimate : combineEstimates(person.estimate, fromText);
    if (!estimate) return { status: 'not_found' };
    const profile: FoundProfile = {
      personId: person.id,
      firstName: person.firstName,
      lastName: person.lastName,
      title: person.title,
      estimate,
      hasAssessment: person.verified,
    };
    return { status: 'complete', profile };
  }
  if (!fromText) return { status: 'not_found' };
  return {
    status: 'complete',
    profile: { personId: null, firstName: input.firstName, lastName: input.lastName, title: null, estimate: fromText, hasAssessment: false },
  };
}

const TIMED_OUT = Symbol('timed out');

function withinTime<T>(work: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The synchronous search: answered in this request when it takes less than the time limit (and
 * stored finished, without the text); otherwise stored with its input and queued like an async
 * one, and `outcome` is null (the route answers 202 with the id). Nobody found: not_found.
 */
export async function searchSync(deps: ConnectDeps, tokenId: string, input: SearchInput): Promise<{ id: string; outcome: RequestOutcome | null }> {
  const id = newId('pr');
  const work = resolveProfile(deps.db, input, deps.text);
  // A late failure is the queued job's to retry; it must not surface as an unhandled rejection.
  work.catch(() => undefined);
  const outcome = await withinTime(work, deps.syncTimeoutMs);
  if (outcome === TIMED_OUT) {
    await queueSearch(deps, id, tokenId, input);
    return { id, outcome: null };
  }
  if (outcome.status === 'not_found') throw new AppError('not_found', NOBODY);
  await deps.finished.write({ id, tokenId, outcome });
  return { id, outcome };
}

/** The asynchronous search: stored with its input and queued; the id comes back at once. */
export async function searchAsync(deps: ConnectDeps, tokenId: string, input: SearchInput): Promise<string> {
  const id = newId('pr');
  await queueSearch(deps, id, tokenId, input);
  return id;
}

async function queueSearch(deps: ConnectDeps, id: string, tokenId: string, input: SearchInput): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await insertPendingRequest(tx, id, tokenId, input);
    await enqueueJob(tx, PROFILE_SEARCH_JOB, { request_id: id }, tokenId);
  });
  deps.wakeWorker();
}

const NOBODY = 'No profile was found for this search.';
const REQUEST_ID = /^pr_[\w-]{16}$/;

/**
 * A request of this token: processing, complete or error. An unknown id, an id of another
 * organisation or of the wrong shape are the same 404, so ids reveal nothing; a search of this
 * organisation's that found nobody is a 404 that says so.
 */
export async function requestResult(db: Queryable, tokenId: string, id: string): Promise<ProfileRequest> {
  const request = REQUEST_ID.test(id) ? await findRequest(db, id, tokenId) : null;
  if (!request) throw new AppError('not_found', 'No profile search with this id belongs to this organization.');
  if (request.status === 'not_found') throw new AppError('not_found', NOBODY);
  return request;
}

/** The profile of a completed search of this token (relationships, messaging, emails take these). */
export async function completedProfile(db: Queryable, tokenId: string, id: string): Promise<FoundProfile> {
  const request = REQUEST_ID.test(id) ? await findRequest(db, id, tokenId) : null;
  if (!request?.profile) throw new AppError('not_found', 'No completed profile search with this id belongs to this organization.');
  return request.profile;
}
