import type { Queryable } from '../db/client.ts';
import { composeConnectRecommendations } from '../content/connect/recommendations.ts';
import type { Content } from '../content/load-content.ts';
import { findMatch } from '../people/search.ts';

/** Enough searches to bring a fresh process to its steady cost (bench/connect.ts: ~1,000 over 100,000 people). */
export const WARM_UP_SEARCHES = 1000;

/**
 * The name search of a fresh process, run over stored names right after the service starts
 * listening, so that its first callers do not pay for the warm-up. A new process's first
 * thousand searches cost about three times the later ones: the JavaScript and the embedded
 * database's WebAssembly are still being compiled, the search's statements prepared, the index
 * pages read, and the C2 composer's selection cache (compose-profile.ts) empty.
 *
 * One search at a time, each behind whatever the callers have queued on the database (its own
 * turn, as any request's), with a turn of the event loop between two: a caller's request is never
 * held up by more than one warm-up search. Nothing is written and nothing answered: the results
 * are dropped. Stops early when `signal` is aborted (the service is closing).
 */
export async function warmNameSearch(db: Queryable, content: Content, signal: AbortSignal, searches = WARM_UP_SEARCHES): Promise<number> {
  // Stored names in the order of their random ids: a sample spread over the table.
  const names = await db.query<{ first_name: string; last_name: string }>(
    "SELECT first_name, last_name FROM people WHERE first_key <> '' AND last_key <> '' ORDER BY id LIMIT $1",
    [searches],
  );
  let done = 0;
  for (const { first_name: firstName, last_name: lastName } of names) {
    if (signal.aborted) break;
    const match = await findMatch(db, { firstName, lastName, email: null, companyName: null, location: null });
    const person = match.person;
    if (person?.estimate) composeConnectRecommendations({ firstName: person.firstName, estimate: person.estimate, title: person.title }, content);
    done += 1;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return done;
}
