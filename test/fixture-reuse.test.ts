import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createToken } from '../src/access/tokens.ts';
import type { Db } from '../src/db/client.ts';
import { createTestDb } from './helpers/db.ts';
import { createTestService, type TestService } from './helpers/service.ts';
import type { EmbeddedDb } from './helpers/embedded-reuse.ts';

/**
 * Test files of one worker reuse the embedded databases earlier files closed
 * (test/helpers/embedded-reuse.ts) and the content and model their services read
 * (test/helpers/service.ts). What one file wrote or cached must not reach the next: each test
 * here plays two files, one after the other, through the same functions the fixtures use.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
const MIGRATIONS = readdirSync(new URL('../src/db/migrations', import.meta.url)).filter((name) => name.endsWith('.sql')).length;

const pgliteOf = (db: Db) => (db as EmbeddedDb).pglite;

/** Every table in the schema with its row count, as the next file would find them. */
async function rowCounts(db: Db): Promise<Record<string, number>> {
  const tables = await db.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1");
  const counts: Record<string, number> = {};
  for (const { name } of tables) counts[name] = Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM "${name}"`))[0]?.n);
  return counts;
}

describe.skipIf(onPostgres)('an embedded test database a file closed, handed to the next file', () => {
  it('is the same database, emptied: no row, setting or lock the earlier file left is there', async () => {
    const earlier = await createTestDb();
    const template = await rowCounts(earlier.db);
    await createToken(earlier.db, { kind: 'enterprise', name: 'earlier file' });
    await earlier.db.exec("SET statement_timeout = '1234ms'; SELECT pg_advisory_lock(42); CREATE TEMPORARY TABLE left_temp (n int); BEGIN");
    expect((await rowCounts(earlier.db)).api_tokens).toBe(1);
    const database = pgliteOf(earlier.db);
    await earlier.close();
    // The handle the earlier file kept fails as a closed database does: a late write cannot land in the next file's data.
    await expect(earlier.db.query('SELECT 1')).rejects.toThrow(/closed/);
    await expect(createToken(earlier.db, { kind: 'enterprise', name: 'too late' })).rejects.toThrow(/closed/);

    const next = await createTestDb();
    try {
      expect(pgliteOf(next.db)).toBe(database);
      const counts = await rowCounts(next.db);
      expect(counts).toEqual(template);
      expect(counts.schema_migrations).toBe(MIGRATIONS);
      expect(Object.entries(counts).filter(([name, n]) => name !== 'schema_migrations' && n > 0)).toEqual([]);
      expect(await next.db.query('SELECT 1 FROM api_tokens WHERE name = $1', ['earlier file'])).toEqual([]);
      expect((await next.db.query<{ statement_timeout: string }>('SHOW statement_timeout'))[0]?.statement_timeout).toBe('0');
      expect(await next.db.query("SELECT to_regclass('pg_temp.left_temp') AS t")).toEqual([{ t: null }]);
      expect(await next.db.query("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'")).toEqual([{ n: 0 }]);
      // Not inside the transaction the earlier file opened: this one commits on its own.
      await next.db.query("INSERT INTO schema_migrations (version) VALUES ('probe')");
      await next.db.query("DELETE FROM schema_migrations WHERE version = 'probe'");
    } finally {
      await next.close();
    }
  });

  it('is a new copy, without the change, when the earlier file changed the schema or the migrations table', async () => {
    for (const change of ['CREATE TABLE left_behind (n int)', 'ALTER TABLE api_tokens ADD COLUMN left_behind int', "INSERT INTO schema_migrations (version) VALUES ('999_left_behind')"]) {
      const earlier = await createTestDb();
      await earlier.db.exec(change);
      const database = pgliteOf(earlier.db);
      await earlier.close();
      const next = await createTestDb();
      try {
        expect(pgliteOf(next.db), change).not.toBe(database);
        expect(await next.db.query("SELECT to_regclass('public.left_behind') AS t")).toEqual([{ t: null }]);
        expect(await next.db.query("SELECT 1 FROM information_schema.columns WHERE column_name = 'left_behind'")).toEqual([]);
        expect((await rowCounts(next.db)).schema_migrations).toBe(MIGRATIONS);
      } finally {
        await next.close();
      }
    }
  });

  it('is never given to two holders at once', async () => {
    const one = await createTestDb();
    const two = await createTestDb();
    try {
      expect(pgliteOf(two.db)).not.toBe(pgliteOf(one.db));
      await createToken(one.db, { kind: 'enterprise', name: 'one' });
      expect((await rowCounts(two.db)).api_tokens).toBe(0);
    } finally {
      await one.close();
      await two.close();
    }
  });
});

describe('test services built one after another in a worker', () => {
  it('share only the read-only content and model: the later one has its own database, token cache and result caches', async () => {
    const earlier = await createTestService();
    const secret = (await earlier.token('enterprise')).secret;
    const usage = (service: TestService) => service.base.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: `Bearer ${secret}` } });
    expect((await usage(earlier)).statusCode).toBe(200);
    const { ctx: before } = earlier;
    await earlier.close();
    const later = await createTestService();
    try {
      // The token the earlier one made and cached is neither in the later one's database nor in its cache.
      expect((await usage(later)).statusCode).toBe(401);
      expect(await later.ctx.db.query('SELECT id FROM api_tokens')).toEqual([]);
      expect(later.ctx.content).toBe(before.content);
      expect(later.ctx.model).toBe(before.model);
      for (const fresh of ['auth', 'textResults', 'descriptions', 'sessions', 'limiter', 'meter', 'people', 'metrics'] as const) {
        expect(later.ctx[fresh], fresh).not.toBe(before[fresh]);
      }
    } finally {
      await later.close();
    }
  });
});
