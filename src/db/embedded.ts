import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Db, Queryable, Row } from './client.ts';
import { embeddedStatements } from './embedded-statements.ts';

type PgliteQueryable = Pick<PGlite, 'query'>;

/** Inside a transaction statements run as plain queries: the transaction holds the lock. */
function wrap(target: PgliteQueryable): Queryable {
  const query = async <T extends Row>(sql: string, params?: readonly unknown[]): Promise<T[]> => {
    const result = await target.query<T>(sql, params ? [...params] : undefined);
    return result.rows;
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
  const base = wrap(pglite);
  return {
    kind: 'embedded',
    pglite,
    query: base.query,
    run: embeddedStatements(pglite),
    async exec(sql) {
      await pglite.exec(sql);
    },
    transaction(fn) {
      return pglite.transaction((tx) => fn(wrap(tx)));
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
