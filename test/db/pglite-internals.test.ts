import { existsSync, readFileSync } from 'node:fs';
import { PGlite, protocol, type messages } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { assertPgliteInternals, missingPgliteInternals, runExclusively, streamProtocol } from '../../src/db/pglite-internals.ts';

/**
 * The embedded prepared statements lean on three private PGlite methods (src/db/pglite-internals.ts).
 * An upgrade that removes or changes one must fail here, saying which and where to look, not as
 * a lookup that silently slips into another caller's transaction.
 */
const installed = (JSON.parse(readFileSync(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url), 'utf8')) as { version: string }).version;
const changed = (what: string): string => `PGlite's private ${what} changed in version ${installed}; see src/db/pglite-internals.ts`;

/** Lets other callers' promises run for a while: long enough for an unlocked query to finish. */
async function letOthersRun(): Promise<void> {
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setTimeout(resolve, 1));
}

describe("PGlite's private API (src/db/pglite-internals.ts)", () => {
  let pglite: PGlite;
  beforeAll(async () => {
    // The run's migrated template loads in half a second; on PostgreSQL runs there is none.
    const template = inject('embeddedTemplate');
    pglite = await PGlite.create(existsSync(template) ? { loadDataDir: new Blob([readFileSync(template)]) } : {});
    await pglite.exec('CREATE TABLE internals_probe (n int)');
  });
  afterAll(async () => {
    if (!pglite.closed) await pglite.close();
  });

  it('still has _checkReady, _runExclusiveTransaction and _runExclusiveQuery', () => {
    for (const name of missingPgliteInternals(pglite)) expect.fail(changed(`${name} (it is gone)`));
    expect(() => assertPgliteInternals(pglite)).not.toThrow();
  });

  it('refuses to start on a PGlite without them, naming the method and the module', () => {
    const stripped = Object.create(pglite, { _runExclusiveQuery: { value: undefined } }) as PGlite;
    expect(() => assertPgliteInternals(stripped)).toThrow(/_runExclusiveQuery changed .*src\/db\/pglite-internals\.ts/);
  });

  it('_runExclusiveQuery: a query() waits until the exclusive run has ended', async () => {
    const events: string[] = [];
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const exclusive = runExclusively(pglite, async () => {
      events.push('exclusive started');
      await gate;
      events.push('exclusive ended');
    });
    await letOthersRun();
    const query = pglite.query('SELECT 1').then(() => events.push('query answered'));
    await letOthersRun();
    if (events.includes('query answered')) expect.fail(changed('_runExclusiveQuery (a query ran while it held the lock)'));
    release();
    await Promise.all([exclusive, query]);
    expect(events).toEqual(['exclusive started', 'exclusive ended', 'query answered']);
  });

  it('_runExclusiveTransaction: an exclusive run waits for an open transaction to commit', async () => {
    const events: string[] = [];
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const transaction = pglite.transaction(async (tx) => {
      await tx.query('INSERT INTO internals_probe VALUES (1)');
      events.push('transaction open');
      await gate;
      events.push('transaction committing');
    });
    await letOthersRun();
    const exclusive = runExclusively(pglite, () => {
      events.push('exclusive ran');
      return Promise.resolve();
    });
    await letOthersRun();
    if (events.includes('exclusive ran')) expect.fail(changed('_runExclusiveTransaction (a run slipped into an open transaction)'));
    release();
    await Promise.all([transaction, exclusive]);
    expect(events).toEqual(['transaction open', 'transaction committing', 'exclusive ran']);
    expect((await pglite.query('SELECT count(*)::int AS n FROM internals_probe')).rows).toEqual([{ n: 1 }]);
  });

  it('execProtocolRawStream: the chunks are the wire protocol\'s messages, errors included, and nothing is thrown', async () => {
    const answer = async (sql: string): Promise<messages.BackendMessage[]> => {
      const chunks: Buffer[] = [];
      // A chunk is a view of the database's memory: copied at once, as embedded-rows.ts does.
      await streamProtocol(pglite, protocol.serialize.query(sql), (chunk) => chunks.push(Buffer.from(chunk)));
      const parsed: messages.BackendMessage[] = [];
      new protocol.Parser().parse(Buffer.concat(chunks), (message) => parsed.push(message));
      return parsed;
    };
    const rows = await answer("SELECT 'é' AS word, NULL::int AS none");
    if (!rows.some((m) => m instanceof protocol.messages.DataRowMessage)) expect.fail(changed('execProtocolRawStream (no DataRow in its chunks)'));
    expect(rows.map((m) => m.name)).toEqual(['rowDescription', 'dataRow', 'commandComplete', 'readyForQuery']);
    const [row] = rows.filter((m): m is messages.DataRowMessage => m instanceof protocol.messages.DataRowMessage);
    expect(row?.fields).toEqual(['é', null]);
    const failed = await answer('SELECT no_such_column FROM internals_probe');
    expect(failed.map((m) => m.name)).toEqual(['error', 'readyForQuery']);
    expect(failed[0]).toMatchObject({ code: '42703' });
  });

  // Last: it closes the database the other cases use.
  it('_checkReady: a closed database rejects before anything runs', async () => {
    await pglite.close();
    let ran = false;
    await expect(runExclusively(pglite, () => { ran = true; return Promise.resolve(); })).rejects.toThrow(/closed/i);
    expect(ran, changed('_checkReady (a closed database ran a statement)')).toBe(false);
  });
});
