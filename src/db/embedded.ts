import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Db, Queryable, Row, Statement } from './client.ts';
import { embeddedStatements } from './embedded-statements.ts';
import { TurnBudget } from './turn-budget.ts';

type PgliteQueryable = Pick<PGlite, 'query'>;

/** When the database last answered a statement, and who waits for its next answer. */
class Progress {
  answeredAt = Number.NEGATIVE_INFINITY;
  private waiters: (() => void)[] = [];

  answered(): void {
    this.answeredAt = performance.now();
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  nextAnswer(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
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
      try {
        return (await target.query<T>(sql, params ? [...params] : undefined)).rows;
      } finally {
        // An error from the database is an answer too: it is alive.
        progress.answered();
      }
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
  const progress = new Progress();
  const base = wrap(pglite, budget, progress, false);
  const runStatement = embeddedStatements(pglite);
  return {
    kind: 'embedded',
    pglite,
    query: base.query,
    run<T extends Row>(statement: Statement, params: readonly unknown[]): Promise<T[]> {
      return budget.run(() => runStatement<T>(statement, params).finally(() => progress.answered()));
    },
    async ping() {
      // Busy answering others is alive: asking it one more question would only measure the
      // queue of work ahead (twenty uploads' transactions: a health check waited 0.6 s behind
      // them), not whether it answers. So: answered lately, alive; work queued, alive at its
      // next answer to anyone; idle, it is asked.
      if (pglite.closed) throw new Error('The embedded database is closed.');
      if (performance.now() - progress.answeredAt < ANSWERED_RECENTLY_MS) return;
      if (budget.queued > 0) return progress.nextAnswer();
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
