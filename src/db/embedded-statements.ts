import { messages, type PGlite } from '@electric-sql/pglite';
import { serialize } from 'pg-protocol';
import type { Row, Statement } from './client.ts';
import { RowReader, type RowColumn } from './embedded-rows.ts';
import { assertPgliteInternals, runExclusively, streamProtocol } from './pglite-internals.ts';
import { isStalePreparedStatement } from './stale-statement.ts';

interface Prepared {
  sql: string;
  columns: { name: string; dataTypeID: number }[];
  paramTypes: number[];
}

const SYNC = serialize.sync();
const EXECUTE = serialize.execute({});

/**
 * Named prepared statements on PGlite. Its query() sends parse, describe, bind, describe,
 * execute and sync as six calls into the database and plans the query every time; here a
 * statement is parsed and described once per process, and each run is a single
 * bind-execute-sync message. Rows are read from the answer's bytes (embedded-rows.ts) and
 * parsed with PGlite's own type parsers, so they look exactly as query() returns them.
 */
export function embeddedStatements(pglite: PGlite): <T extends Row>(statement: Statement, params: readonly unknown[]) => Promise<T[]> {
  // An upgrade that dropped the private locks stops the start here, not the first lookup.
  assertPgliteInternals(pglite);
  const prepared = new Map<string, Prepared>();

  async function prepare(statement: Statement): Promise<Prepared> {
    const result = await pglite.execProtocol(
      Buffer.concat([serialize.parse({ name: statement.name, text: statement.sql, types: [] }), serialize.describe({ type: 'S', name: statement.name }), SYNC]),
    );
    let columns: Prepared['columns'] = [];
    let paramTypes: number[] = [];
    for (const message of result.messages) {
      if (message instanceof messages.RowDescriptionMessage) columns = message.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID }));
      if (message instanceof messages.ParameterDescriptionMessage) paramTypes = message.dataTypeIDs;
    }
    return { sql: statement.sql, columns, paramTypes };
  }

  async function preparedFor(statement: Statement): Promise<Prepared> {
    const known = prepared.get(statement.name);
    if (known) {
      if (known.sql !== statement.sql) throw new Error(`Prepared statement "${statement.name}" already names other SQL; give each statement its own name.`);
      return known;
    }
    const fresh = await prepare(statement);
    prepared.set(statement.name, fresh);
    return fresh;
  }

  /** Forgets a statement the database no longer runs as prepared (see stale-statement.ts). */
  async function forget(statement: Statement): Promise<void> {
    prepared.delete(statement.name);
    await pglite.execProtocol(Buffer.concat([serialize.close({ type: 'S', name: statement.name }), SYNC]));
  }

  function serializeParam(value: unknown, type: number | undefined): string | null {
    if (value === null || value === undefined) return null;
    const serializer = type === undefined ? undefined : pglite.serializers[type];
    return serializer ? serializer(value) : String(value);
  }

  /** Each column with the parser PGlite's query() would read it with. */
  function rowColumns(columns: Prepared['columns']): RowColumn[] {
    return columns.map(({ name, dataTypeID }) => {
      const parser = pglite.parsers[dataTypeID];
      return { name, parse: parser ? (text: string) => parser(text, dataTypeID) : null };
    });
  }

  async function execute<T extends Row>(statement: Statement, params: readonly unknown[]): Promise<T[]> {
    const { columns, paramTypes } = await preparedFor(statement);
    const values = params.map((value, i) => serializeParam(value, paramTypes[i]));
    // The rows are read from the answer's bytes as they come (embedded-rows.ts says why).
    const reader = new RowReader<T>(rowColumns(columns));
    await streamProtocol(pglite, Buffer.concat([serialize.bind({ statement: statement.name, values }), EXECUTE, SYNC]), (chunk) => reader.read(chunk));
    return reader.finish();
  }

  // Both of PGlite's locks, as query() takes them: a run must never slip between the statements
  // of another caller's open transaction (the private API behind this: pglite-internals.ts).
  return async <T extends Row>(statement: Statement, params: readonly unknown[]) =>
    runExclusively(pglite, async () => {
      try {
        return await execute<T>(statement, params);
      } catch (error) {
        if (!isStalePreparedStatement(error)) throw error;
        await forget(statement);
        return execute<T>(statement, params);
      }
    });
}
