/**
 * The embedded database's prepared statements read two ways, alternated in one process over one
 * database: the rows read from the answer's bytes (src/db/embedded-rows.ts) against PGlite's own
 * parser (`execProtocol`, how they were read before). Name searches over the people of
 * bench/connect.ts (run it first: it renames them); CPU a search each way, and every answer
 * compared.
 *
 *   npx tsx bench/connect-statements.ts --data-dir DIR --people N [--rounds 6] [--searches 1000]
 */
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { messages, type PGlite } from '@electric-sql/pglite';
import { serialize } from 'pg-protocol';
import type { Queryable, Row, Statement } from '../src/db/client.ts';
import { openEmbedded } from '../src/db/embedded.ts';
import { embeddedStatements } from '../src/db/embedded-statements.ts';
import { runExclusively } from '../src/db/pglite-internals.ts';
import { findMatch } from '../src/people/search.ts';
import { seededRandom } from '../training/random.ts';
import { nameOf } from './connect-names.ts';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    people: { type: 'string', default: '0' },
    rounds: { type: 'string', default: '6' },
    searches: { type: 'string', default: '1000' },
  },
});
const dataDir = values['data-dir'];
const people = Number(values.people);
if (!dataDir || !(people > 0)) throw new Error('give --data-dir and --people (a directory renamed by bench/connect.ts)');

type Run = <T extends Row>(statement: Statement, params: readonly unknown[]) => Promise<T[]>;

/** The statements as they were read before: PGlite's execProtocol and its parsed messages. */
function parsedByPglite(pglite: PGlite): Run {
  const described = new Map<string, { columns: { name: string; dataTypeID: number }[]; paramTypes: number[] }>();
  const sync = serialize.sync();
  return <T extends Row>(statement: Statement, params: readonly unknown[]) =>
    runExclusively(pglite, async () => {
      let known = described.get(statement.name);
      if (!known) {
        const result = await pglite.execProtocol(Buffer.concat([serialize.parse({ name: statement.name, text: statement.sql, types: [] }), serialize.describe({ type: 'S', name: statement.name }), sync]));
        known = { columns: [], paramTypes: [] };
        for (const message of result.messages) {
          if (message instanceof messages.RowDescriptionMessage) known.columns = message.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID }));
          if (message instanceof messages.ParameterDescriptionMessage) known.paramTypes = message.dataTypeIDs;
        }
        described.set(statement.name, known);
      }
      const { columns, paramTypes } = known;
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        const type = paramTypes[i];
        const serializer = type === undefined ? undefined : pglite.serializers[type];
        return serializer ? serializer(value) : String(value);
      });
      const result = await pglite.execProtocol(Buffer.concat([serialize.bind({ statement: statement.name, values }), serialize.execute({}), sync]));
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
    });
}

/** A Queryable whose statements carry their own prefix, so the two readers' prepared names never meet. */
function queryable(run: Run, prefix: string): Queryable {
  return {
    query: () => Promise.reject(new Error('name search runs prepared statements only')),
    run: (statement, params) => run({ name: `${prefix}${statement.name}`, sql: statement.sql }, params),
  };
}

const db = await openEmbedded({ dataDir: path.join(dataDir, 'pgdata') });
try {
  const sides = { pglite: queryable(parsedByPglite(db.pglite), 'old_'), bytes: queryable(embeddedStatements(db.pglite), 'new_') };
  const random = seededRandom(29);
  const names = Array.from({ length: Number(values.searches) }, () => nameOf(Math.floor(random() * people)));
  const answers = { pglite: [] as string[], bytes: [] as string[] };
  const cpu = { pglite: [] as number[], bytes: [] as number[] };
  const rounds = Number(values.rounds);
  for (let round = 0; round < rounds + 2; round += 1) {
    // Alternated, and which side goes first alternates too; the first two rounds only warm.
    const order = round % 2 === 0 ? (['pglite', 'bytes'] as const) : (['bytes', 'pglite'] as const);
    for (const side of order) {
      const started = process.cpuUsage();
      const found: string[] = [];
      for (const { first, last } of names) found.push(JSON.stringify(await findMatch(sides[side], { firstName: first, lastName: last, email: null, companyName: null, location: null })));
      const used = process.cpuUsage(started);
      if (round < 2) continue;
      cpu[side].push((used.user + used.system) / names.length);
      answers[side].push(...found);
    }
  }
  const differing = answers.bytes.filter((answer, i) => answer !== answers.pglite[i]).length;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const show = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
  console.log(`${names.length} name searches a round over ${people} people, ${rounds} rounds alternated (after 2 warming), µs of CPU a search (this process):`);
  console.log(`  PGlite's parser:    ${show(cpu.pglite)} (median ${median(cpu.pglite).toFixed(0)})`);
  console.log(`  read from the bytes: ${show(cpu.bytes)} (median ${median(cpu.bytes).toFixed(0)})`);
  console.log(`  answers differing: ${differing} of ${answers.bytes.length}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  if (differing > 0) process.exitCode = 1;
} finally {
  await db.close();
}
