/**
 * One small client over the embedded database (PGlite) and a PostgreSQL server. Repository
 * functions take a `Queryable` and write plain SQL that runs unchanged on both.
 */
export type Row = Record<string, unknown>;

/**
 * A fixed statement on a hot path (a lookup every request makes). Where the connection allows,
 * it is parsed and planned once and then only bound and executed: on the embedded database that
 * is one round trip into it instead of six, about five times faster for a point lookup.
 */
export interface Statement {
  /** Unique per statement text within the process. */
  readonly name: string;
  readonly sql: string;
}

export function statement(name: string, sql: string): Statement {
  return { name, sql };
}

export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Same result as query(statement.sql, params), reusing the statement's plan where it can. */
  run<T extends Row = Row>(statement: Statement, params: readonly unknown[]): Promise<T[]>;
}

export interface Db extends Queryable {
  readonly kind: 'embedded' | 'postgres';
  /** Runs several statements separated by semicolons, without parameters (migrations). */
  exec(sql: string): Promise<void>;
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Throws when the database cannot answer (the health check). */
  ping(): Promise<void>;
  /**
   * Embedded database only: a consistent copy of the whole data directory as a gzipped tarball
   * (src/db/backup.ts). Absent on PostgreSQL, which has pg_dump.
   */
  dumpDataDir?(): Promise<Blob>;
  close(): Promise<void>;
  /** Connection pool use, where there is a pool (PostgreSQL); the embedded database has one connection. */
  readonly poolStats?: () => { total: number; idle: number; waiting: number };
}

/** The first row, or undefined. */
export async function queryOne<T extends Row>(db: Queryable, sql: string, params?: readonly unknown[]): Promise<T | undefined> {
  const rows = await db.query<T>(sql, params);
  return rows[0];
}
