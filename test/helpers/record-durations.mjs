#!/usr/bin/env node
// Writes test/helpers/file-durations.json, the order the slow-first sequencer starts files in,
// from a vitest JSON report of a whole-suite run:
//   npx vitest run --reporter=json --outputFile=/tmp/run.json
//   node test/helpers/record-durations.mjs /tmp/run.json
// Only the order matters, so a run on a busy machine serves as well as a quiet one as long as
// it ran the whole suite.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const [report] = process.argv.slice(2);
if (!report) {
  console.error('usage: node test/helpers/record-durations.mjs REPORT.json (from vitest --reporter=json)');
  process.exit(1);
}
const { testResults } = JSON.parse(readFileSync(report, 'utf8'));
const durations = testResults
  .map(({ name, startTime, endTime }) => [`test/${name.split('/test/').slice(1).join('/test/')}`, Math.round((endTime - startTime) / 100) / 10])
  .filter(([file]) => file !== 'test/')
  .sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
const target = path.join(path.dirname(fileURLToPath(import.meta.url)), 'file-durations.json');
writeFileSync(target, `${JSON.stringify(Object.fromEntries(durations), null, 2)}\n`);
console.log(`${durations.length} files, longest ${durations[0]?.[0]} (${durations[0]?.[1]} s), written to ${path.relative(process.cwd(), target)}`);
