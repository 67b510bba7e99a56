import DataLoader from 'dataloader';
import type { Queryable } from '../db/client.ts';
import { batchKeyOf, findPersonSummaries, type BatchColumn, type PersonKey, type PersonSummary } from './repository.ts';

/** Most keys one statement looks up by default; a busier turn is sent as several statements. */
const MAX_BATCH = 128;

/**
 * The profile lookups of every request in flight, by email, profile URL or public id, sent as
 * one statement per column and turn of the event loop instead of one each. Under load the
 * database answers a batch of lookups for little more than the cost of one: the round trip,
 * protocol and wake-ups are most of what a point lookup costs PostgreSQL, and on the embedded
 * database every statement holds the event loop. A lone request waits for nothing: its batch is
 * sent at the end of the turn that asked for it (setImmediate), after the other requests read in
 * that turn have asked for theirs. Nothing is cached: every request reads the database as it is.
 *
 * Built once per process at start-up (AppContext.people); transactions keep using the
 * repository's single lookups, which run on their own connection.
 */
export class PersonLookups {
  private readonly loaders: Record<BatchColumn, DataLoader<string, PersonSummary | null>>;

  constructor(db: Queryable, options: { maxBatch?: number } = {}) {
    const loaderFor = (column: BatchColumn) =>
      new DataLoader<string, PersonSummary | null>(
        async (keys) => {
          const found = await findPersonSummaries(db, column, keys);
          const handedOut = new Set<string>();
          return keys.map((key) => {
            const summary = found.get(key);
            if (summary === undefined) return null;
            if (!handedOut.has(key)) {
              handedOut.add(key);
              return summary;
            }
            // Two requests for one person in a batch each get an object of their own, as they
            // would from two statements: what one does with its person never shows in the other.
            return structuredClone(summary);
          });
        },
        { cache: false, maxBatchSize: options.maxBatch ?? MAX_BATCH, batchScheduleFn: (send) => setImmediate(send) },
      );
    this.loaders = { email_normalized: loaderFor('email_normalized'), linkedin_key: loaderFor('linkedin_key'), public_id: loaderFor('public_id') };
  }

  /** The person without their texts, or null; an email or URL that cannot name anyone finds no one. */
  async summary(key: Exclude<PersonKey, { id: string }>): Promise<PersonSummary | null> {
    const lookup = batchKeyOf(key);
    return lookup ? this.byKey(lookup) : null;
  }

  /** The same, for a key already normalised by batchKeyOf (a caller that checked it first). */
  async byKey([column, value]: [BatchColumn, string]): Promise<PersonSummary | null> {
    return this.loaders[column].load(value);
  }
}
