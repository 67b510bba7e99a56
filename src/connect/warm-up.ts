import type { Queryable } from '../db/client.ts';
import type { RecommendationsCache } from '../content/connect/recommendations-cache.ts';
import { answerParts } from './answer-parts.ts';
import { readSearch } from './criteria.ts';
import { resolveProfile } from './profile-search.ts';
import type { FoundProfile } from './requests.ts';

/** How long the warm-up may go on, and how it tells that the cost of a search stopped falling. */
export interface WarmUpLimits {
  /** Searches always run (when there are names enough): the first rounds are the costly ones. */
  minSearches: number;
  /** Never more than this many searches… */
  maxSearches: number;
  /** …nor for longer than this (wall time: on a loaded machine each search takes longer). */
  maxMs: number;
  /** Searches a round; the CPU a search is compared round by round. */
  roundSize: number;
  /** Rounds in a row, after the minimum, not cheaper than the best round by this share: steady. */
  steadyRounds: number;
  steadyShare: number;
}

/**
 * Over 100,000 people a fresh process's search kept getting cheaper for ~3,000–3,500 searches,
 * by 5–15 % each 500 (bench/connect.ts --cpu-curve; docs/benchmarks.md, sixth session): rounds
 * of 500, "steady" once two in a row are not 5 % under the best, never before 2,000 (rounds of
 * 250 and 10 % called a machine at load 13 steady after the least 1,000, at twice the later
 * cost). 60 s bounds it on a loaded machine (quiet, a search costs ~0.6–1 ms).
 */
export const WARM_UP_LIMITS: WarmUpLimits = { minSearches: 2000, maxSearches: 8000, maxMs: 60_000, roundSize: 500, steadyRounds: 2, steadyShare: 0.05 };

export interface WarmUpResult {
  searches: number;
  ms: number;
  /** Why it stopped: the cost stopped falling, a limit, no names left, or the service closing. */
  ended: 'steady' | 'most searches' | 'time limit' | 'names used up' | 'stopped';
  /** The process's CPU a search in the last full round, µs (callers' requests meanwhile included). */
  lastRoundCpuUs: number | null;
}

/**
 * The name search of a fresh process, run over stored names as soon as the service listens, so
 * that its first callers do not pay for the warm-up. A new process's first thousands of
 * searches cost up to three times the later ones: the JavaScript and the embedded database's
 * WebAssembly still being compiled, index pages read, the C2 composer's caches
 * (compose-profile.ts, recommendations-cache.ts) empty. It runs in rounds and ends once a search's CPU stops falling, or
 * at a limit (WARM_UP_LIMITS).
 *
 * What a synchronous search by name runs before its answer is sent runs here, with the answer's
 * parts (`answer`, by default `answerParts`): not the HTTP edge, so no token is used, no request
 * logged, metered or counted in /metrics, and nothing is written. Warming through the whole route
 * (inject, or real requests over loopback) did not make the first callers' answers cheaper: V8
 * still optimised ~130–200 functions of the HTTP path over their first ~2,000 answers, and
 * deoptimised some that the warm-up's requests had optimised (their requests' shapes differ from
 * any one client's; docs/benchmarks.md, eighth session), and the writes and request lines would
 * read as traffic that nobody sent.
 *
 * One search at a time, each behind whatever the callers have queued on the database (its own
 * turn, as any request's), with a turn of the event loop between two: a caller's request is never
 * held up by more than one warm-up search. Stops early when `signal` is aborted (the service is
 * closing).
 */
export async function warmNameSearch(
  db: Queryable,
  recommendations: RecommendationsCache,
  signal: AbortSignal,
  limits: WarmUpLimits = WARM_UP_LIMITS,
  answer: (profile: FoundProfile, recommendations: RecommendationsCache) => void = answerParts,
): Promise<WarmUpResult> {
  const started = performance.now();
  // Stored names in the order of their random ids: a sample spread over the table.
  const names = await db.query<{ first_name: string; last_name: string }>(
    "SELECT first_name, last_name FROM people WHERE first_key <> '' AND last_key <> '' ORDER BY id LIMIT $1",
    [limits.maxSearches],
  );
  const rounds = new SteadyCost(limits);
  let searches = 0;
  let ended: WarmUpResult['ended'] = 'names used up';
  let roundCpu = process.cpuUsage();
  for (const { first_name: firstName, last_name: lastName } of names) {
    if (signal.aborted) {
      ended = 'stopped';
      break;
    }
    if (performance.now() - started > limits.maxMs) {
      ended = 'time limit';
      break;
    }
    // What a synchronous search by name runs before its answer is sent: the criteria read, the
    // profile resolved (no text sample: nothing goes to the text pool), and the answer's parts
    // (the personality view behind its DISC type and map point, and the recommendations).
    const outcome = await resolveProfile(db, readSearch({ firstName, lastName }, 'sync'), NO_TEXT);
    if (outcome.status === 'complete') answer(outcome.profile, recommendations);
    searches += 1;
    if (searches % limits.roundSize === 0) {
      const used = process.cpuUsage(roundCpu);
      roundCpu = process.cpuUsage();
      if (rounds.add((used.user + used.system) / limits.roundSize, searches)) {
        ended = 'steady';
        break;
      }
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (ended === 'names used up' && searches === limits.maxSearches) ended = 'most searches';
  return { searches, ms: Math.round(performance.now() - started), ended, lastRoundCpuUs: rounds.last };
}

/** Searches by name carry no text sample: the warm-up never reads one. */
const NO_TEXT = {
  analyze: () => Promise.reject(new Error('the name search warm-up reads no text')),
};

/** Round after round of CPU a search: says when, past the minimum, it stopped falling. */
export class SteadyCost {
  private best = Number.POSITIVE_INFINITY;
  private notFalling = 0;
  last: number | null = null;

  constructor(private readonly limits: Pick<WarmUpLimits, 'minSearches' | 'steadyRounds' | 'steadyShare'>) {}

  /** One round's CPU a search (µs) after `searches` in all; true once the cost is steady. */
  add(cpuUs: number, searches: number): boolean {
    this.last = Math.round(cpuUs);
    const falling = cpuUs < this.best * (1 - this.limits.steadyShare);
    this.best = Math.min(this.best, cpuUs);
    this.notFalling = falling ? 0 : this.notFalling + 1;
    return searches >= this.limits.minSearches && this.notFalling >= this.limits.steadyRounds;
  }
}
