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

/** How long the first connection may take at start-up. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * One connection before the pool is used: a wrong DATABASE_URL fails the start with the server's
 * own words, and a server that accepts the connection and never answers fails it after
 * CONNECT_TIMEOUT_MS instead of holding it for ever (pg closes the socket at the deadline).
 */
async function probeServer(connectionString: string): Promise<void> {
  const probe = new pg.Client({ connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  try {
    await probe.connect();
  } catch (error) {
    if (error instanceof Error && /timeout/i.test(error.message)) {
      throw new Error(`PostgreSQL at ${serverOf(connectionString)} did not answer within ${CONNECT_TIMEOUT_MS / 1000} s (DATABASE_URL).`, { cause: error });
    }
    throw error;
  } finally {
    await probe.end().catch(() => undefined);
  }
}

function serverOf(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `${url.hostname}:${url.port || '5432'}`;
  } catch {
    return 'the server in DATABASE_URL';
  }
}

export async function openPostgres(connectionString: string, maxConnections = 10): Promise<Db> {
  await probeServer(connectionString);
  const pool = new pg.Pool({ connectionString, max: maxConnections, types });
  // Idle clients can error when the server restarts; without a listener that would crash the process.
  pool.on('error', () => undefined);
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
