/**
 * The import with its texts read on one thread against read ahead on the text pool's worker
 * threads (src/people/analyse-ahead.ts, what `rapport people import` does), in alternating rounds
 * over the same generated people, each into a fresh embedded database; checks that both store the
 * same estimates. The gain needs a core the database's thread is not using: on a busy machine the
 * pool only adds its round trips.
 *
 *   npx tsx bench/import-compare.ts [--people 20000] [--rounds 2]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, loadavg } from 'node:os';
import path from 'node:path';
import { openEmbedded } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { importPeople } from '../src/people/import.ts';
import { DEFAULT_MODEL_PATH, loadModel } from '../src/personality/text/model.ts';
import { TextPool } from '../src/personality/text/pool.ts';
import { defaultTextWorkers } from '../src/config.ts';
import { parseArgs } from 'node:util';
import { generatePeople } from './people.ts';

const { values } = parseArgs({ options: { people: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '2' } } });
const n = Number(values.people);
const dir = await mkdtemp(path.join(tmpdir(), 'imp-'));
const file = path.join(dir, 'p.jsonl');
await generatePeople(file, n);
const model = loadModel();
const estimates: string[] = [];
const modes = Array.from({ length: Number(values.rounds) }, () => ['one thread', 'text pool']).flat();
for (const mode of modes) {
  const db = await openEmbedded({ dataDir: await mkdtemp(path.join(dir, 'pgdata-')) });
  await migrate(db);
  const textPool = mode === 'text pool' ? new TextPool({ model, modelPath: DEFAULT_MODEL_PATH, workers: defaultTextWorkers(), maxQueue: 100, inlineMaxChars: 20_000 }) : undefined;
  const t = performance.now(); const c = process.cpuUsage();
  const s = await importPeople({ db, model, ...(textPool ? { textPool } : {}) }, file);
  const sec = (performance.now() - t) / 1000; const u = process.cpuUsage(c);
  const t2 = performance.now();
  const again = await importPeople({ db, model, ...(textPool ? { textPool } : {}) }, file);
  const sec2 = (performance.now() - t2) / 1000;
  const [row] = await db.query<{ h: string }>("SELECT md5(string_agg(email_normalized || ':' || coalesce(estimate::text, 'null') || model_version, ',' ORDER BY email_normalized)) AS h FROM people");
  estimates.push(row?.h ?? '');
  console.log(
    `${mode.padEnd(10)} ${s.inserted} inserted in ${sec.toFixed(1)} s = ${Math.round(n / sec)} people/s, ${Math.round((u.user + u.system) / n)} µs of CPU a person (all threads); ` +
      `again: ${again.unchanged} unchanged in ${sec2.toFixed(1)} s; load average ${loadavg()[0]?.toFixed(1)}; stored rows' digest ${row?.h}`,
  );
  await textPool?.close(); await db.close();
}
console.log(new Set(estimates).size === 1 ? 'every run stored the same estimates' : 'STORED ESTIMATES DIFFER between runs');
await rm(dir, { recursive: true, force: true });
