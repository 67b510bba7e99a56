import type { PGlite } from '@electric-sql/pglite';
import type { Db, Queryable, Row, Statement } from '../../src/db/client.ts';

/**
 * Opening a copy of the migrated template costs ~0.9 s of CPU (copying its files and starting
 * PGlite); emptying an open database that a file has finished with costs a few tens of ms. So a
 * worker process keeps the embedded databases its files have closed and hands one to the next
 * file that asks, emptied first. A reused database must be indistinguishable from a new copy:
 *
 * - every table that is empty in the template is emptied (TRUNCATE), and the rows of the others
 *   (schema_migrations) must be the template's;
 * - its schema (tables, columns, constraints, indexes, functions, triggers, extensions) and its
 *   planner statistics must be the template's: a file that changed them (a probe table, an
 *   added constraint, an ANALYZE) leaves a database that is closed, not reused;
 * - the connection's state is put back (settings, temporary tables, advisory locks, an open transaction);
 * - the handle a file was given stops working when it closes it, as a closed database does, so
 *   a late write from a file that has finished cannot reach the next file's data;
 * - after emptying, every table is checked to be empty (one query), in every file that reuses one.
 */
export type EmbeddedDb = Db & { pglite: PGlite };

/** What a database must look like to be handed out: the template's, read from the first copy a worker opens. */
interface Template {
  fingerprint: string;
  emptied: readonly string[];
}

interface Kept {
  db: EmbeddedDb;
  /** Removes the copy's files once the database is closed. */
  remove(): void;
}

/** Outlives a module evaluated again for a later file in the same worker. */
const STATE = Symbol.for('rapport.test-db.embedded-reuse');
type WithState = typeof globalThis & { [STATE]?: { idle: Kept[]; template?: Template } };
const state = ((globalThis as WithState)[STATE] ??= { idle: [] });

/** Databases kept per worker: a file seldom holds more than two at once. */
const MAX_IDLE = 2;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const quoteLiteral = (text: string) => `'${text.replaceAll("'", "''")}'`;

const PUBLIC_TABLES = "SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY 1";

/** The schema, the statistics and the rows of the tables that are not emptied, as one hash. */
async function fingerprint(db: EmbeddedDb, kept: readonly string[]): Promise<string> {
  const rows = kept.map((table) => `(SELECT coalesce(md5(string_agg(t::text, ',' ORDER BY t::text)), '') FROM ${quote(table)} t)`);
  const { rows: [row] } = await db.pglite.query<{ hash: string }>(`
    WITH public_rel AS (SELECT c.oid, c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public')
    SELECT md5(concat_ws('|',
      (SELECT string_agg(relname || ':' || relkind::text, ',' ORDER BY relname) FROM public_rel),
      (SELECT string_agg(r.relname || '.' || a.attname || ':' || format_type(a.atttypid, a.atttypmod) || ':' || a.attnotnull::text || ':' || coalesce(pg_get_expr(d.adbin, d.adrelid), ''), ',' ORDER BY r.relname, a.attnum)
         FROM pg_attribute a JOIN public_rel r ON r.oid = a.attrelid LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
         WHERE a.attnum > 0 AND NOT a.attisdropped),
      (SELECT string_agg(r.relname || '.' || c.conname || ':' || pg_get_constraintdef(c.oid), ',' ORDER BY r.relname, c.conname) FROM pg_constraint c JOIN public_rel r ON r.oid = c.conrelid),
      (SELECT string_agg(pg_get_indexdef(i.indexrelid), ',' ORDER BY pg_get_indexdef(i.indexrelid)) FROM pg_index i JOIN public_rel r ON r.oid = i.indrelid),
      (SELECT string_agg(p.proname || ':' || md5(p.prosrc), ',' ORDER BY p.proname, md5(p.prosrc)) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'),
      (SELECT string_agg(t.tgname || ':' || pg_get_triggerdef(t.oid), ',' ORDER BY t.tgname, pg_get_triggerdef(t.oid)) FROM pg_trigger t JOIN public_rel r ON r.oid = t.tgrelid),
      (SELECT string_agg(extname || ':' || extversion, ',' ORDER BY extname) FROM pg_extension),
      (SELECT string_agg(nspname::text, ',' ORDER BY nspname) FROM pg_namespace),
      (SELECT count(*)::text FROM pg_statistic s JOIN public_rel r ON r.oid = s.starelid)
      ${rows.length > 0 ? `, ${rows.join(', ')}` : ''}
    )) AS hash`);
  return row?.hash ?? '';
}

/** Reads what a database fresh from the template looks like; called on a copy no file has used. */
export async function noteTemplate(db: EmbeddedDb): Promise<void> {
  if (state.template) return;
  const tables = (await db.pglite.query<{ name: string }>(PUBLIC_TABLES)).rows.map((row) => row.name);
  const kept: string[] = [];
  for (const table of tables) {
    const [row] = (await db.pglite.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${quote(table)}) AS any`)).rows;
    if (row?.any === true) kept.push(table);
  }
  state.template = { fingerprint: await fingerprint(db, kept), emptied: tables.filter((table) => !kept.includes(table)) };
}

/** Puts a used database back as the template was, or says it cannot be (then it is closed, not reused). */
async function reset(db: EmbeddedDb, template: Template): Promise<boolean> {
  const { pglite } = db;
  // What the earlier file queued before it closed runs first (through the database's own queue):
  // a write still waiting there would otherwise land after the emptying, in the next file's data.
  await db.query('SELECT 1');
  // An open transaction left behind is rolled back (a warning when there is none), then the connection's own state.
  await pglite.exec('ROLLBACK; RESET ALL; DISCARD TEMP; UNLISTEN *; SELECT pg_advisory_unlock_all()');
  const kept = (await pglite.query<{ name: string }>(PUBLIC_TABLES)).rows.map((row) => row.name).filter((name) => !template.emptied.includes(name));
  if ((await fingerprint(db, kept)) !== template.fingerprint) return false;
  // Only the tables the file wrote to: TRUNCATE makes new files for a table and its indexes.
  const hasRows = async () => (await pglite.query<{ name: string }>(`${template.emptied.map((table) => `SELECT ${quoteLiteral(table)} AS name WHERE EXISTS (SELECT 1 FROM ${quote(table)})`).join(' UNION ALL ')}`)).rows.map((row) => row.name);
  const written = await hasRows();
  if (written.length > 0) await pglite.exec(`TRUNCATE ${written.map(quote).join(', ')} CASCADE`);
  if ((await hasRows()).length > 0) throw new Error('test database reuse: a table still has rows after TRUNCATE');
  return true;
}

/** A database a file closed, emptied as the template; undefined when none is kept (open a new copy). */
export async function takeKept(): Promise<Kept | undefined> {
  const { template } = state;
  for (let kept = state.idle.pop(); kept; kept = state.idle.pop()) {
    const usable = template !== undefined && !kept.db.pglite.closed && (await reset(kept.db, template).catch(() => false));
    if (usable) return kept;
    await kept.db.close().catch(() => undefined);
    kept.remove();
  }
  return undefined;
}

/** Keeps a database for the next file (or closes it when enough are kept). */
export async function keep(kept: Kept): Promise<void> {
  if (state.idle.length < MAX_IDLE && state.template && !kept.db.pglite.closed) {
    state.idle.push(kept);
    return;
  }
  await kept.db.close();
  kept.remove();
}

/**
 * The handle a file is given: the database's own methods until `close`, which hands the database
 * back; from then on every call fails as on a closed database.
 */
export function lease(db: EmbeddedDb, onClose: () => Promise<void>): EmbeddedDb {
  let closed = false;
  const open = () => {
    if (closed) throw new Error('The embedded database is closed.');
  };
  return {
    kind: db.kind,
    pglite: db.pglite,
    async query<T extends Row>(sql: string, params?: readonly unknown[]) {
      open();
      return db.query<T>(sql, params);
    },
    async run<T extends Row>(statement: Statement, params: readonly unknown[]) {
      open();
      return db.run<T>(statement, params);
    },
    async exec(sql) {
      open();
      return db.exec(sql);
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      open();
      return db.transaction(fn);
    },
    async ping() {
      open();
      return db.ping();
    },
    async dumpDataDir() {
      open();
      if (!db.dumpDataDir) throw new Error('no dumpDataDir');
      return db.dumpDataDir();
    },
    async close() {
      if (closed) return;
      closed = true;
      await onClose();
    },
  };
}
