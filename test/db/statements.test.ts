import { beforeAll, describe, expect, it } from 'vitest';
import { statement } from '../../src/db/client.ts';
import { useTestDb } from '../helpers/db.ts';

/** Prepared statements must return exactly what a plain query returns, on both databases. */
describe('prepared statements (Queryable.run)', () => {
  const t = useTestDb();
  beforeAll(async () => {
    await t.db.exec(`CREATE TABLE stmt_probe (id text PRIMARY KEY, n bigint, flag boolean, doc jsonb, at timestamptz, note text);
      INSERT INTO stmt_probe VALUES ('a', 42, true, '{"x":[1,2],"y":"é"}', '2026-01-02T03:04:05Z', NULL), ('b', 7, false, 'null', now(), 'two words')`);
  });

  const byId = statement('test_stmt_probe_by_id', 'SELECT id, n, flag, doc, at, note FROM stmt_probe WHERE id = $1');

  it('returns the same rows, with the same types, as query()', async () => {
    for (const id of ['a', 'b', 'missing']) {
      const plain = await t.db.query(byId.sql, [id]);
      const prepared = await t.db.run(byId, [id]);
      expect(prepared).toEqual(plain);
    }
    const [a] = await t.db.run<{ n: number; flag: boolean; doc: unknown; at: Date; note: string | null }>(byId, ['a']);
    expect(a).toMatchObject({ n: 42, flag: true, doc: { x: [1, 2], y: 'é' }, note: null });
    expect(a?.at).toBeInstanceOf(Date);
    expect(a?.at.toISOString()).toBe('2026-01-02T03:04:05.000Z');
  });

  it('returns a large answer, cut across many chunks of the database\'s output, as query() does', async () => {
    // ~8,000 rows of multi-byte text: the embedded database hands its answer over in chunks,
    // so messages (and characters) are split between them (src/db/embedded-rows.ts).
    const many = statement('test_stmt_many_rows', "SELECT n, repeat('é€', n % 50) || n AS text, CASE WHEN n % 7 = 0 THEN NULL ELSE n * 2 END AS maybe FROM generate_series(1, $1::int) AS n");
    const plain = await t.db.query(many.sql, [8000]);
    const prepared = await t.db.run(many, [8000]);
    expect(prepared).toHaveLength(8000);
    expect(prepared).toEqual(plain);
    expect(prepared[6]).toEqual({ n: 7, text: 'é€'.repeat(7) + '7', maybe: null });
    // One value longer than many chunks (a big JSON document).
    const long = statement('test_stmt_long_value', "SELECT repeat('é', $1::int) || '!' AS long, 1 AS after");
    expect(await t.db.run(long, [300_000])).toEqual([{ long: 'é'.repeat(300_000) + '!', after: 1 }]);
  });

  it('serialises typed parameters as query() does (numbers, json, null)', async () => {
    const filtered = statement('test_stmt_probe_filter', 'SELECT id FROM stmt_probe WHERE n > $1 AND doc @> $2::jsonb AND ($3::text IS NULL OR note = $3) ORDER BY id');
    expect(await t.db.run(filtered, [10, JSON.stringify({ y: 'é' }), null])).toEqual([{ id: 'a' }]);
    expect(await t.db.run(filtered, [100, JSON.stringify({}), null])).toEqual([]);
  });

  it('reports a database error and keeps working afterwards', async () => {
    const broken = statement('test_stmt_broken', 'SELECT no_such_column FROM stmt_probe WHERE id = $1');
    await expect(t.db.run(broken, ['a'])).rejects.toThrow(/no_such_column/);
    const cast = statement('test_stmt_cast', 'SELECT $1::int AS n');
    await expect(t.db.run(cast, ['not a number'])).rejects.toThrow(/invalid input syntax/);
    expect(await t.db.run(cast, ['5'])).toEqual([{ n: 5 }]);
    expect(await t.db.run(byId, ['b'])).toHaveLength(1);
  });

  it('throws the same error, code and detail included, as query()', async () => {
    const insert = statement('test_stmt_insert_probe', 'INSERT INTO stmt_probe (id, n) VALUES ($1, $2)');
    const fromQuery = await t.db.query(insert.sql, ['a', 1]).catch((error: unknown) => error);
    const fromRun = await t.db.run(insert, ['a', 1]).catch((error: unknown) => error);
    expect(fromRun).toBeInstanceOf(Error);
    expect(fromRun).toMatchObject({ code: '23505', constraint: 'stmt_probe_pkey' });
    const fields = (error: unknown) => {
      const { message, code, detail, severity, constraint, table } = error as Record<string, unknown>;
      return { message, code, detail, severity, constraint, table };
    };
    expect(fields(fromRun)).toEqual(fields(fromQuery));
    expect(await t.db.run(byId, ['a'])).toHaveLength(1);
  });

  it('does not read inside another caller\'s open transaction', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted: () => void = () => undefined;
    const insertedSignal = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = t.db.transaction(async (tx) => {
      await tx.query("INSERT INTO stmt_probe (id, n) VALUES ('c', 1)");
      inserted();
      await held;
      throw new Error('roll back');
    });
    await insertedSignal;
    const lookup = t.db.run(byId, ['c']);
    release();
    await expect(transaction).rejects.toThrow('roll back');
    expect(await lookup).toEqual([]);
  });

  it('refuses a second statement under a name already used for other SQL', async () => {
    const first = statement('test_stmt_named_once', 'SELECT 1 AS n');
    const other = statement('test_stmt_named_once', 'SELECT 2 AS n');
    expect(await t.db.run(first, [])).toEqual([{ n: 1 }]);
    await expect(t.db.run(other, [])).rejects.toThrow();
  });

  it('keeps answering after a migration changes the columns a prepared statement returns', async () => {
    await t.db.exec('CREATE TABLE stmt_migrating (id text PRIMARY KEY, score int)');
    await t.db.query("INSERT INTO stmt_migrating VALUES ('a', 1)");
    const all = statement('test_stmt_migrating_all', 'SELECT * FROM stmt_migrating WHERE id = $1');
    expect(await t.db.run(all, ['a'])).toEqual([{ id: 'a', score: 1 }]);
    await t.db.exec("ALTER TABLE stmt_migrating ALTER COLUMN score TYPE text; ALTER TABLE stmt_migrating ADD COLUMN note text DEFAULT 'new'");
    expect(await t.db.run(all, ['a'])).toEqual([{ id: 'a', score: '1', note: 'new' }]);
    expect(await t.db.run(all, ['a'])).toEqual([{ id: 'a', score: '1', note: 'new' }]);
  });

  it('keeps answering after the session drops its prepared statements', async () => {
    expect(await t.db.run(byId, ['a'])).toHaveLength(1);
    await t.db.exec('DEALLOCATE ALL');
    expect(await t.db.run(byId, ['a'])).toHaveLength(1);
  });
});
