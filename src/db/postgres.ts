import pg from 'pg';
import type { Db, Queryable, Row, Statement } from './client.ts';
import { isStalePreparedStatement } from './stale-statement.ts';

const INT8_OID = 20;

/**
 * PostgreSQL returns bigint (count(*), sums) as strings; PGlite returns numbers. Parse them
 * here so repository code sees the same types on both. Our counters stay far below 2^53.
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T extends Row>(sql: string, params?: readonly unknown[]): Promise<T[]> {
      const result = await client.query<T>(sql, params ? [...params] : undefined);
      return result.rows;
    },
    // node-postgres prepares a named statement once per connection and reuses it. It cannot be
    // told to forget one the server dropped or can no longer run (stale-statement.ts), so such
    // a run falls back to a plain query: slower, but the right rows until the pool is renewed.
    async run<T extends Row>(statement: Statement, params: readonly unknown[]): Promise<T[]> {
      try {
        const result = await client.query<T>({ name: statement.name, text: statement.sql, values: [...params] });
        return result.rows;
      } catch (error) {
        if (!isStalePreparedStatement(error)) throw error;
        const result = await client.query<T>(statement.sql, [...params]);
        return result.rows;
      }
    },
  };
}

export async function openPostgres(connectionString: string, maxConnections = 10): Promise<Db> {
  const pool = new pg.Pool({ connectionString, max: maxConnections, types });
  // Idle clients can error when the server restarts; without a listener that would crash the process.
  pool.on('error', () => undefined);
  // Fail at start-up, with the server's own words, rather than on the first request.
  const probe = await pool.connect();
  probe.release();
  const base = wrap(pool);
  return {
    kind: 'postgres',
    query: base.query,
    run: base.run,
    async exec(sql) {
      await pool.query(sql);
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}
