/**
 * One small client over the embedded database (PGlite) and a PostgreSQL server. Repository
 * functions take a `Queryable` and write plain SQL that runs unchanged on both.
 */
export type Row = Record<string, unknown>;

export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface Db extends Queryable {
  readonly kind: 'embedded' | 'postgres';
  /** Runs several statements separated by semicolons, without parameters (migrations). */
  exec(sql: string): Promise<void>;
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The first row, or undefined. */
export async function queryOne<T extends Row>(db: Queryable, sql: string, params?: readonly unknown[]): Promise<T | undefined> {
  const rows = await db.query<T>(sql, params);
  return rows[0];
}
