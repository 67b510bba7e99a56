import { openAsBlob } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Db, Queryable, Row, Statement } from './client.ts';
import { embeddedStatements } from './embedded-statements.ts';
import { templateFor, writeEmbeddedTemplate } from './embedded-template.ts';
import { migrate } from './migrate.ts';
import { longTextAsBytes } from './pglite-internals.ts';
import { TurnBudget } from './turn-budget.ts';

type PgliteQueryable = Pick<PGlite, 'query'>;
type QueryOptions = NonNullable<Parameters<PGlite['query']>[2]>;

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
function wrap(target: PgliteQueryable, budget: TurnBudget, progress: Progress, inTransaction: boolean, options: QueryOptions): Queryable {
  const query = async <T extends Row>(sql: string, params?: readonly unknown[]): Promise<T[]> => {
    const ask = async () => {
      await budget.spend();
      try {
        return (await target.query<T>(sql, params ? [...params] : undefined, options)).rows;
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
  /** The dump a new `dataDir` starts from; the build's migrated database by default (embedded-template.ts). */
  template?: string;
}

/**
 * PostgreSQL's settings for one embedded connection. PGlite starts with a server's: 128 MB of
 * shared buffers and room for 100 connections, all of it in this process's memory (~150 MB
 * resident before a query). It has one connection and reads its files through the operating
 * system's page cache, so a small buffer pool costs a copy from that cache, not a disk read.
 * Given on every start (they win over postgresql.conf) and to initdb (so they are written there).
 */
export const EMBEDDED_SETTINGS: readonly string[] = [
  'shared_buffers=32MB',
  'max_connections=5',
  'max_prepared_transactions=0',
];

const asParams = (settings: readonly string[]) => settings.flatMap((setting) => ['-c', setting]);

/**
 * Writes the database new data directories start from (embedded-template.ts; the build calls
 * this): initdb's cluster with every migration of this build applied, so a first start neither
 * runs initdb nor migrates (~2 s of CPU).
 */
export async function createEmbeddedTemplate(file: string): Promise<void> {
  const db = await openEmbedded();
  try {
    await migrate(db);
    await writeEmbeddedTemplate(file, db.pglite);
  } finally {
    await db.close();
  }
}

/** PGlite in this process. It has one connection: queries run one at a time. */
export async function openEmbedded(options: EmbeddedOptions = {}): Promise<Db & { pglite: PGlite }> {
  // A new data directory starts from the build's migrated empty database rather than running initdb.
  const template = options.dataDir && !options.loadDataDir ? templateFor(options.dataDir, options.template) : null;
  const loadDataDir = options.loadDataDir ?? (template ? await openAsBlob(template) : undefined);
  const pglite = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(loadDataDir ? { loadDataDir } : {}),
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, ...asParams(EMBEDDED_SETTINGS)],
    initDbStartParams: asParams(EMBEDDED_SETTINGS),
  });
  // One budget for the whole database: it is one thread's work, whoever asks.
  const budget = new TurnBudget();
  const progress = new Progress();
  // A long text or JSON parameter (an import batch) goes as bytes Node encodes (pglite-internals.ts).
  const queryOptions: QueryOptions = { serializers: longTextAsBytes(pglite) };
  const base = wrap(pglite, budget, progress, false, queryOptions);
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
      return budget.run(() => pglite.transaction((tx) => fn(wrap(tx, budget, progress, true, queryOptions))));
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
