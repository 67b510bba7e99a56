#!/usr/bin/env node
// Writes test/helpers/file-durations.json, the order the slow-first sequencer starts files in,
// from whole-suite runs: vitest JSON reports, or the output of `npm test` / `bash .ci/run`
// (vitest's default reporter, which prints each file's duration):
//   npx vitest run --reporter=json --outputFile=/tmp/run.json
//   node test/helpers/record-durations.mjs /tmp/run.json
//   bash .ci/run 2>&1 | tee /tmp/ci.log; node test/helpers/record-durations.mjs /tmp/ci*.log
// A file's figure is its mean over the runs given, the larger of the embedded and the PostgreSQL
// run's where a log holds both (a PostgreSQL-only file such as cli/scale-out then starts early
// there). Only the order matters, so a run on a busy machine serves as well as a quiet one as
// long as it ran the whole suite.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const reports = process.argv.slice(2);
if (reports.length === 0) {
  console.error('usage: node test/helpers/record-durations.mjs REPORT.json|RUN.log ... (vitest --reporter=json, or the output of npm test or .ci/run)');
  process.exit(1);
}

/** Each run in a report as [file, seconds] pairs: one for a JSON report, one per database for a CI log. */
function runsIn(report) {
  const text = readFileSync(report, 'utf8');
  if (text.trimStart().startsWith('{')) {
    const { testResults } = JSON.parse(text);
    return [testResults.map(({ name, startTime, endTime }) => [`test/${name.split('/test/').slice(1).join('/test/')}`, (endTime - startTime) / 1000]).filter(([file]) => file !== 'test/')];
  }
  const plain = text.replace(/\x1b\[[0-9;]*m/g, '');
  return plain.split('== tests on PostgreSQL').map((section) =>
    [...section.matchAll(/^ [✓❯↓×] (test\/\S+\.test\.ts) \(\d+ tests?[^)]*\)(?:\s+(\d+)ms)?/gm)].map(([, file, ms]) => [file, Number(ms ?? 0) / 1000]),
  ).filter((run) => run.length > 0);
}

const runs = reports.map(runsIn);
// The runs of one database are the same place in each report (a CI log: embedded, then PostgreSQL).
const databases = Math.max(...runs.map((r) => r.length));
const seconds = new Map();
for (let db = 0; db < databases; db += 1) {
  const sums = new Map();
  const counts = new Map();
  for (const report of runs) for (const [file, s] of report[db] ?? []) {
    sums.set(file, (sums.get(file) ?? 0) + s);
    counts.set(file, (counts.get(file) ?? 0) + 1);
  }
  for (const [file, sum] of sums) seconds.set(file, Math.max(seconds.get(file) ?? 0, sum / (counts.get(file) ?? 1)));
}
const durations = [...seconds].map(([file, s]) => [file, Math.round(s * 10) / 10]).sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
const target = path.join(path.dirname(fileURLToPath(import.meta.url)), 'file-durations.json');
writeFileSync(target, `${JSON.stringify(Object.fromEntries(durations), null, 2)}\n`);
console.log(`${durations.length} files from ${reports.length} report(s), longest ${durations[0]?.[0]} (${durations[0]?.[1]} s), written to ${path.relative(process.cwd(), target)}`);
