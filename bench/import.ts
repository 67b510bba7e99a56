/**
 * Import throughput and lookup overhead on a fresh embedded database.
 *
 *   npx tsx bench/import.ts [--people N] [--lookups N] [--keep] [--before <checkout>] [--rounds N] [--threads N] [--profile DIR]
 *
 * Generates N people (default 100,000) with a professional bio each (from the labelled corpus) into a temp JSON Lines file,
 * imports it into a database created and migrated beforehand (not timed), prints people/s and the CPU a person (every
 * thread of the process, the main thread, the analysis threads (which end with the import: the CPU not found on the threads
 * still running) and the other threads busiest first); then times point lookups by email over random addresses: a plain
 * query, the same as a prepared statement, and the repository's findPersonSummary.
 *
 * `--profile DIR`: writes a CPU profile of the main thread over each import (not the generating
 * or the database's creation) into DIR.
 *
 * `--before <checkout>`: that checkout's import (its own src/, model and migrations) imports the
 * same file into a fresh database of its own, in the same process, taking turns with this one for
 * `--rounds` rounds (default 2), so that a loaded machine weighs on both alike. `--threads`: this
 * checkout's analysis threads (ImportOptions.analysisThreads; 0 reads the texts inline).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { openEmbedded } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { importPeople } from '../src/people/import.ts';
import { DEFAULT_MODEL_PATH, loadModel } from '../src/personality/text/model.ts';
import { findPersonSummary } from '../src/people/repository.ts';
import { statement, type Db } from '../src/db/client.ts';
import { seededRandom } from '../training/random.ts';
import { generatePeople as generate } from './people.ts';

/** What GET /v1/profiles reads of a person: everything but the texts. */
const SUMMARY_COLUMNS = `id, public_id, email, email_normalized, linkedin_url, linkedin_key, first_name, last_name, photo_url,
  company_name, title, location, estimate, model_version, verified, source, created_at, updated_at`;

/**
 * CPU seconds of this process's main thread (Linux: /proc/self/task/<pid>/stat, utime + stime in
 * clock ticks of 10 ms); NaN elsewhere. With the analysis on other threads, the main thread (the
 * database's writes, reading the file) is the part that cannot spread over more cores.
 */
function mainThreadCpuSeconds(): number {
  return threadCpuSeconds(String(process.pid));
}

function threadCpuSeconds(task: string): number {
  try {
    const fields = readFileSync(`/proc/self/task/${task}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds of every thread of this process by thread id (Linux; empty elsewhere). */
function threadsCpuSeconds(): Map<string, number> {
  try {
    return new Map(readdirSync('/proc/self/task').map((task) => [task, threadCpuSeconds(task)]));
  } catch {
    return new Map();
  }
}

/**
 * The CPU of the threads other than the main one still running after an import, busiest first, in
 * µs a person: V8's helpers (garbage collection, compiling) and the module loader's. The analysis
 * threads have ended by then (their pool closes with the import), so they are not among them.
 */
function otherThreads(before: Map<string, number>, people: number): number[] {
  const after = threadsCpuSeconds();
  after.delete(String(process.pid));
  return [...after]
    .map(([task, seconds]) => ((seconds - (before.get(task) ?? 0)) * 1e6) / people)
    .filter((us) => us > 0)
    .sort((a, b) => b - a);
}

/** A CPU profile of the main thread over one import only (`--profile DIR`), for `chrome://inspect` or a script. */
async function startProfile(): Promise<{ stop(file: string): Promise<void> }> {
  const session = new Session();
  session.connect();
  const post = <T>(method: string): Promise<T> =>
    new Promise((resolve, reject) => session.post(method, (error, result) => (error ? reject(error) : resolve(result as T))));
  await post('Profiler.enable');
  await post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await post<{ profile: unknown }>('Profiler.stop');
      session.disconnect();
      await writeFile(file, JSON.stringify(profile));
    },
  };
}

interface Importer {
  name: string;
  /**
   * A fresh embedded database with the schema. Not timed: from source there is no build's
   * template, so PGlite runs initdb here (seconds of CPU), which is no part of an import into a
   * running service and was counted in the import's time before.
   */
  open(dataDir: string): Promise<Db>;
  /** The file imported into `db` (timed). */
  run(db: Db, file: string): Promise<{ inserted: number; skipped: number; withoutPersonality: number }>;
}

function thisCheckout(threads: number | undefined): Importer {
  const model = loadModel();
  return {
    name: 'this checkout',
    async open(dataDir) {
      const db = await openEmbedded({ dataDir });
      await migrate(db);
      return db;
    },
    run: (db, file) => importPeople({ db, model, modelPath: DEFAULT_MODEL_PATH }, file, threads === undefined ? {} : { analysisThreads: threads }),
  };
}

/** Another checkout's import, through its own modules (it must have its node_modules). */
async function otherCheckout(root: string): Promise<Importer> {
  const load = (file: string) => import(pathToFileURL(path.resolve(root, file)).href) as Promise<Record<string, unknown>>;
  const embedded = (await load('src/db/embedded.ts')) as { openEmbedded: typeof openEmbedded };
  const migrations = (await load('src/db/migrate.ts')) as { migrate: typeof migrate };
  const people = (await load('src/people/import.ts')) as { importPeople: typeof importPeople };
  const models = (await load('src/personality/text/model.ts')) as { loadModel: typeof loadModel; DEFAULT_MODEL_PATH: string };
  const model = models.loadModel();
  return {
    name: `before (${root})`,
    async open(dataDir) {
      const db = await embedded.openEmbedded({ dataDir });
      await migrations.migrate(db);
      return db;
    },
    // Passed whether or not that checkout reads it: an older import takes { db, model }.
    run: (db, file) => people.importPeople({ db, model, modelPath: models.DEFAULT_MODEL_PATH }, file),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      people: { type: 'string', default: '100000' },
      lookups: { type: 'string', default: '20000' },
      keep: { type: 'boolean', default: false },
      before: { type: 'string' },
      rounds: { type: 'string' },
      threads: { type: 'string' },
      profile: { type: 'string' },
    },
  });
  const people = Number(values.people);
  const lookups = Number(values.lookups);
  const rounds = Number(values.rounds ?? (values.before === undefined ? 1 : 2));
  const dir = await mkdtemp(path.join(tmpdir(), 'rapport-bench-import-'));
  const file = path.join(dir, 'people.jsonl');
  try {
    let t = performance.now();
    await generate(file, people);
    const size = (await stat(file)).size;
    console.log(`generated ${people} people (${(size / 1e6).toFixed(1)} MB) in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    const ours = thisCheckout(values.threads === undefined ? undefined : Number(values.threads));
    const importers = values.before === undefined ? [ours] : [await otherCheckout(values.before), ours];
    const results = new Map<string, { rate: number; cpu: number; main: number }[]>();
    let db: Db | undefined;
    let dataDir: string | undefined;
    for (let round = 1; round <= rounds; round++) {
      for (const importer of importers) {
        await db?.close();
        if (dataDir) await rm(dataDir, { recursive: true, force: true });
        // The last import's database is the one kept (bench/run.ts hands DIR/pgdata to the HTTP benches).
        dataDir = path.join(dir, round === rounds && importer === ours ? 'pgdata' : `pgdata-${round}-${importers.indexOf(importer)}`);
        const opened = performance.now();
        db = await importer.open(dataDir);
        const openSeconds = (performance.now() - opened) / 1000;
        const profiler = values.profile === undefined ? null : await startProfile();
        const cpu0 = process.cpuUsage();
        const main0 = mainThreadCpuSeconds();
        const threads0 = threadsCpuSeconds();
        t = performance.now();
        const summary = await importer.run(db, file);
        const seconds = (performance.now() - t) / 1000;
        const cpu = process.cpuUsage(cpu0);
        if (profiler && values.profile !== undefined) {
          const written = path.join(values.profile, `import-${round}-${importers.indexOf(importer)}.cpuprofile`);
          await profiler.stop(written);
          console.log(`main thread's profile of that import: ${written}`);
        }
        const main = ((mainThreadCpuSeconds() - main0) * 1e6) / people;
        const others = otherThreads(threads0, people);
        // The analysis threads end with the import, before /proc can be read: their CPU is what
        // the process spent beyond the threads still there.
        const ended = (cpu.user + cpu.system) / people - main - others.reduce((a, b) => a + b, 0);
        const figures = { rate: people / seconds, cpu: (cpu.user + cpu.system) / people, main };
        results.set(importer.name, [...(results.get(importer.name) ?? []), figures]);
        const label = importers.length > 1 ? ` [${importer.name}, round ${round}]` : '';
        console.log(
          `import${label}: ${summary.inserted} inserted, ${summary.skipped} skipped, ${summary.withoutPersonality} without personality in ${seconds.toFixed(1)} s = ${Math.round(figures.rate)} people/s, ${Math.round(figures.cpu)} µs of CPU a person (all threads; main thread ${Math.round(main)} µs), load ${loadavg()[0]?.toFixed(1)} (the database created and migrated before, in ${openSeconds.toFixed(1)} s, not counted); threads ended with the import (the analysis threads) ${Math.round(ended)} µs a person; threads still running (V8's helpers: garbage collection, compiling), busiest first: ${others.slice(0, 4).map((us) => Math.round(us)).join(', ')} µs a person, the rest ${Math.round(others.slice(4).reduce((a, b) => a + b, 0))}`,
        );
      }
    }
    if (importers.length > 1) {
      for (const [name, runs] of results) {
        console.log(`${name}: ${runs.map((r) => `${Math.round(r.rate)}/s at ${Math.round(r.cpu)} µs (main thread ${Math.round(r.main)})`).join(', ')}`);
      }
    }
    // What the CPU figures allow on two free cores: the main thread on one, the other threads
    // (the analysis) on the other, whichever is slower sets the pace; one thread alone is its whole CPU.
    for (const [name, runs] of results) {
      const ceiling = runs.map((r) => 1e6 / Math.max(r.main, r.cpu - r.main));
      console.log(`${name}: ceiling on 2 free cores from CPU a person ${ceiling.map((c) => Math.round(c)).join(', ')} people/s`);
    }
    if (!db) throw new Error('no import ran');
    const imported: Db = db;
    const model = loadModel();

    const again = performance.now();
    const second = await importPeople({ db: imported, model, modelPath: DEFAULT_MODEL_PATH }, file);
    console.log(`import again: ${second.unchanged} unchanged in ${((performance.now() - again) / 1000).toFixed(1)} s`);

    // Every timing pass draws fresh people uniformly from the whole dataset, as the HTTP bench
    // does: repeating one set of addresses would keep its rows in the buffer cache and flatter
    // the raw figures.
    const next = seededRandom(7);
    const randomEmails = () => Array.from({ length: lookups }, () => `Person${Math.floor(next() * people)}@Example.com`);
    // The raw lookups read the row the profile route reads, normalised by hand: first as a plain
    // query (the driver's ordinary API), then as a prepared statement (what the repository uses).
    const sql = `SELECT ${SUMMARY_COLUMNS} FROM people WHERE email_normalized = $1`;
    const prepared = statement('bench_raw_person_by_email', sql);
    const rawQuery = (email: string) => imported.query(sql, [email.toLowerCase()]);
    const lookupsBy: Record<string, (email: string) => Promise<unknown>> = {
      raw: rawQuery,
      'raw prepared': (email) => imported.run(prepared, [email.toLowerCase()]),
      findPersonSummary: (email) => findPersonSummary(imported, { email }),
    };
    const time = async (lookup: (email: string) => Promise<unknown>) => {
      const emails = randomEmails();
      const t0 = performance.now();
      for (const email of emails) await lookup(email);
      return lookups / ((performance.now() - t0) / 1000);
    };
    if (lookups > 0) {
      // A first pass warms the code paths and the cache; then take turns, best of three each.
      await time(rawQuery);
      const best = new Map<string, number>();
      for (let round = 0; round < 3; round++) {
        for (const [name, lookup] of Object.entries(lookupsBy)) best.set(name, Math.max(best.get(name) ?? 0, await time(lookup)));
      }
      console.log(`lookups by email over ${people} people: ${[...best].map(([name, rate]) => `${name} ${Math.round(rate)}/s`).join(', ')}`);
    }
    console.log(`peak resident memory of the process: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
    await imported.close();
  } finally {
    if (!values.keep) await rm(dir, { recursive: true, force: true });
    else console.log(`kept ${dir}`);
  }
}

await main();
