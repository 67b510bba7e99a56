import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Db, Queryable, Row, Statement } from './client.ts';
import { embeddedStatements } from './embedded-statements.ts';
import { TurnBudget } from './turn-budget.ts';

type PgliteQueryable = Pick<PGlite, 'query'>;

/** When the database last answered a statement (performance.now()). */
interface Progress {
  answeredAt: number;
}

/** A database that answered within this long is alive: `ping` need not wait its turn. */
const ANSWERED_RECENTLY_MS = 1000;

/**
 * Statements as plain queries. Outside a transaction each waits its place in the budget's queue;
 * inside one (the transaction holds that place) each only checks the turn's budget.
 */
function wrap(target: PgliteQueryable, budget: TurnBudget, progress: Progress, inTransaction: boolean): Queryable {
  const query = async <T extends Row>(sql: string, params?: readonly unknown[]): Promise<T[]> => {
    const ask = async () => {
      await budget.spend();
      const result = await target.query<T>(sql, params ? [...params] : undefined);
      progress.answeredAt = performance.now();
      return result.rows;
    };
    return inTransaction ? ask() : budget.run(ask);
  };
  return { query, run: (statement, params) => query(statement.sql, params) };
}

export interface EmbeddedOptions {
  /** Directory for the data; undefined = in memory (tests). */
  dataDir?: string;
  /** A dumped data directory to start from (tests load a migrated template in ~0.5 s). */
  loadDataDir?: Blob;
}

/** PGlite in this process. It has one connection: queries run one at a time. */
export async function openEmbedded(options: EmbeddedOptions = {}): Promise<Db & { pglite: PGlite }> {
  const pglite = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    extensions: { pg_trgm },
  });
  // One budget for the whole database: it is one thread's work, whoever asks.
  const budget = new TurnBudget();
  const progress: Progress = { answeredAt: Number.NEGATIVE_INFINITY };
  const base = wrap(pglite, budget, progress, false);
  const runStatement = embeddedStatements(pglite);
  return {
    kind: 'embedded',
    pglite,
    query: base.query,
    async run<T extends Row>(statement: Statement, params: readonly unknown[]): Promise<T[]> {
      const rows = await budget.run(() => runStatement<T>(statement, params));
      progress.answeredAt = performance.now();
      return rows;
    },
    async ping() {
      // Busy answering others is alive: asking it one more question would only measure the
      // queue of work ahead (twenty uploads' transactions), not whether it answers. Idle, it is asked.
      if (pglite.closed) throw new Error('The embedded database is closed.');
      if (performance.now() - progress.answeredAt < ANSWERED_RECENTLY_MS) return;
      await base.query('SELECT 1');
    },
    async exec(sql) {
      await pglite.exec(sql);
    },
    transaction(fn) {
      return budget.run(() => pglite.transaction((tx) => fn(wrap(tx, budget, progress, true))));
    },
    async dumpDataDir() {
      // A checkpoint first, so the copy needs little WAL replay when it is started. The copy is
      // taken inside a transaction of our own: PGlite runs one transaction at a time, so no other
      // is half-done in it (an unfinished one would be rolled back on restore anyway).
      await pglite.query('CHECKPOINT');
      return pglite.transaction(async () => pglite.dumpDataDir('gzip'));
    },
    async close() {
      if (!pglite.closed) await pglite.close();
    },
  };
}
