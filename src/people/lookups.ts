import DataLoader from 'dataloader';
import { statement, type Queryable, type Statement } from '../db/client.ts';
import { columnFor, SUMMARY_COLUMNS, toSummary, type LookupColumn, type PersonKey, type PersonRow, type PersonSummary } from './repository.ts';

/** Most keys one statement looks up by default; a busier turn is sent as several statements. */
const MAX_BATCH = 128;

type BatchedColumn = Exclude<LookupColumn, 'id'>;

function batchStatement(column: BatchedColumn): Statement {
  return statement(`people_by_${column}_batch`, `SELECT ${SUMMARY_COLUMNS} FROM people WHERE ${column} = ANY($1::text[])`);
}

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
  private readonly loaders: Record<BatchedColumn, DataLoader<string, PersonSummary | null>>;

  constructor(db: Queryable, options: { maxBatch?: number } = {}) {
    const maxBatchSize = options.maxBatch ?? MAX_BATCH;
    const loaderFor = (column: BatchedColumn) => {
      const sql = batchStatement(column);
      return new DataLoader<string, PersonSummary | null>(
        async (keys) => {
          const rows = await db.run<PersonRow>(sql, [[...keys]]);
          const byKey = new Map<unknown, PersonRow>(rows.map((row) => [row[column], row]));
          return keys.map((key) => {
            const row = byKey.get(key);
            return row ? toSummary(row) : null;
          });
        },
        { cache: false, maxBatchSize, batchScheduleFn: (send) => setImmediate(send) },
      );
    };
    this.loaders = { email_normalized: loaderFor('email_normalized'), linkedin_key: loaderFor('linkedin_key'), public_id: loaderFor('public_id') };
  }

  /** The person without their texts, or null; an email or URL that cannot name anyone finds no one. */
  async summary(key: Exclude<PersonKey, { id: string }>): Promise<PersonSummary | null> {
    const lookup = columnFor(key);
    if (!lookup) return null;
    const [column, value] = lookup;
    if (column === 'id') return null;
    return this.loaders[column].load(value);
  }
}
