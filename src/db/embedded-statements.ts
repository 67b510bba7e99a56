import { messages, type PGlite } from '@electric-sql/pglite';
import { serialize } from 'pg-protocol';
import type { Row, Statement } from './client.ts';

interface Prepared {
  columns: { name: string; dataTypeID: number }[];
  paramTypes: number[];
}

const SYNC = serialize.sync();
const EXECUTE = serialize.execute({});

/**
 * Named prepared statements on PGlite. Its query() sends parse, describe, bind, describe,
 * execute and sync as six calls into the database and plans the query every time; here a
 * statement is parsed and described once per process, and each run is a single
 * bind-execute-sync message. Results are parsed with PGlite's own type parsers, so rows look
 * exactly as query() returns them.
 */
export function embeddedStatements(pglite: PGlite): <T extends Row>(statement: Statement, params: readonly unknown[]) => Promise<T[]> {
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
    return { columns, paramTypes };
  }

  function serializeParam(value: unknown, type: number | undefined): string | null {
    if (value === null || value === undefined) return null;
    const serializer = type === undefined ? undefined : pglite.serializers[type];
    return serializer ? serializer(value) : String(value);
  }

  return <T extends Row>(statement: Statement, params: readonly unknown[]) =>
    // Both locks, as query() takes them: a run must never slip between the statements of
    // another caller's open transaction.
    pglite._runExclusiveTransaction(() =>
      pglite._runExclusiveQuery(async () => {
        let known = prepared.get(statement.name);
        if (!known) {
          known = await prepare(statement);
          prepared.set(statement.name, known);
        }
        const { columns, paramTypes } = known;
        const values = params.map((value, i) => serializeParam(value, paramTypes[i]));
        const result = await pglite.execProtocol(Buffer.concat([serialize.bind({ statement: statement.name, values }), EXECUTE, SYNC]));
        const rows: T[] = [];
        for (const message of result.messages) {
          if (!(message instanceof messages.DataRowMessage)) continue;
          const row: Row = {};
          columns.forEach((column, i) => {
            const parser = pglite.parsers[column.dataTypeID];
            const text = message.fields[i] ?? null;
            row[column.name] = text === null ? null : parser ? parser(text, column.dataTypeID) : text;
          });
          rows.push(row as T);
        }
        return rows;
      }),
    );
}
