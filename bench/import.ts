/**
 * Import throughput and lookup overhead on a fresh embedded database.
 *
 *   npx tsx bench/import.ts [--people N] [--lookups N] [--keep]
 *
 * Generates N people (default 100,000) with a professional bio each (from the labelled corpus) into a temp JSON Lines file,
 * imports it, prints people/s; then times point lookups by email over random addresses: a plain
 * query, the same as a prepared statement, and the repository's findPersonSummary.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openEmbedded } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { importPeople } from '../src/people/import.ts';
import { loadModel } from '../src/personality/text/model.ts';
import { findPersonSummary } from '../src/people/repository.ts';
import { statement } from '../src/db/client.ts';
import { seededRandom } from '../training/random.ts';
import { generatePeople as generate } from './people.ts';

/** What GET /v1/profiles reads of a person: everything but the texts. */
const SUMMARY_COLUMNS = `id, public_id, email, email_normalized, linkedin_url, linkedin_key, first_name, last_name, photo_url,
  company_name, title, location, estimate, model_version, verified, source, created_at, updated_at`;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { people: { type: 'string', default: '100000' }, lookups: { type: 'string', default: '20000' }, keep: { type: 'boolean', default: false } } });
  const people = Number(values.people);
  const lookups = Number(values.lookups);
  const dir = await mkdtemp(path.join(tmpdir(), 'rapport-bench-import-'));
  const file = path.join(dir, 'people.jsonl');
  try {
    let t = performance.now();
    await generate(file, people);
    const size = (await stat(file)).size;
    console.log(`generated ${people} people (${(size / 1e6).toFixed(1)} MB) in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    const db = await openEmbedded({ dataDir: path.join(dir, 'pgdata') });
    const model = loadModel();
    await migrate(db);
    t = performance.now();
    const summary = await importPeople({ db, model }, file);
    const seconds = (performance.now() - t) / 1000;
    console.log(`import: ${summary.inserted} inserted, ${summary.skipped} skipped, ${summary.withoutPersonality} without personality in ${seconds.toFixed(1)} s = ${Math.round(people / seconds)} people/s`);

    const again = performance.now();
    const second = await importPeople({ db, model }, file);
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
    const rawQuery = (email: string) => db.query(sql, [email.toLowerCase()]);
    const lookupsBy: Record<string, (email: string) => Promise<unknown>> = {
      raw: rawQuery,
      'raw prepared': (email) => db.run(prepared, [email.toLowerCase()]),
      findPersonSummary: (email) => findPersonSummary(db, { email }),
    };
    const time = async (lookup: (email: string) => Promise<unknown>) => {
      const emails = randomEmails();
      const t0 = performance.now();
      for (const email of emails) await lookup(email);
      return lookups / ((performance.now() - t0) / 1000);
    };
    // A first pass warms the code paths and the cache; then take turns, best of three each.
    await time(rawQuery);
    const best = new Map<string, number>();
    for (let round = 0; round < 3; round++) {
      for (const [name, lookup] of Object.entries(lookupsBy)) best.set(name, Math.max(best.get(name) ?? 0, await time(lookup)));
    }
    console.log(`lookups by email over ${people} people: ${[...best].map(([name, rate]) => `${name} ${Math.round(rate)}/s`).join(', ')}`);
    await db.close();
  } finally {
    if (!values.keep) await rm(dir, { recursive: true, force: true });
    else console.log(`kept ${dir}`);
  }
}

await main();
