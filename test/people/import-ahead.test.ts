import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PEOPLE_FILE } from '../../src/people/demo/seed.ts';
import { importPeople } from '../../src/people/import.ts';
import { DEFAULT_MODEL_PATH, loadModel } from '../../src/personality/text/model.ts';
import { TextPool } from '../../src/personality/text/pool.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

const model = loadModel();
const demoTexts = readFileSync(DEMO_PEOPLE_FILE, 'utf8')
  .trim()
  .split('\n')
  .map((line) => (JSON.parse(line) as { texts: { type: string; text: string }[] }).texts)
  .filter((texts) => texts.length > 0);

let dir: string;
const dbs: TestDb[] = [];
const pools: TextPool[] = [];
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rapport-import-ahead-'));
});
afterAll(async () => {
  for (const pool of pools) await pool.close();
  for (const db of dbs) await db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** 70 people with real texts, a person named twice with other texts, one with no text, one with a junk text. */
function peopleFile(name: string, changed = false): string {
  const rows = Array.from({ length: 70 }, (_, i) => ({
    email: `ahead${i}@example.com`,
    first_name: `Ahead${i}`,
    texts: changed && i % 3 === 0 ? (demoTexts[(i + 5) % demoTexts.length] ?? []) : (demoTexts[i % demoTexts.length] ?? []),
  }));
  rows.push({ email: 'notext@example.com', first_name: 'No', texts: [] });
  rows.push({ email: 'junk@example.com', first_name: 'Junk', texts: [{ type: 'bio', text: 'zzz qqq xxx '.repeat(40) }] });
  const file = path.join(dir, name);
  writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n'));
  return file;
}

async function stored(db: TestDb['db']): Promise<string> {
  const rows = await db.query<{ email_normalized: string; estimate: unknown; model_version: string | null }>(
    'SELECT email_normalized, estimate, model_version FROM people ORDER BY email_normalized',
  );
  return JSON.stringify(rows);
}

describe('an import analyses full batches on the text pool while the batch before is written', () => {
  it('stores what an import on one thread stores, first import and import of changed texts, and the pool did the reading', async () => {
    const [inline, ahead] = [await createTestDb(), await createTestDb()];
    dbs.push(inline, ahead);
    const pool = new TextPool({ model, modelPath: DEFAULT_MODEL_PATH, workers: 2, maxQueue: 10, inlineMaxChars: 20_000 });
    pools.push(pool);
    const first = peopleFile('first.jsonl');
    const options = { batchSize: 20 };

    const one = await importPeople({ db: inline.db, model }, first, options);
    const two = await importPeople({ db: ahead.db, model, textPool: pool }, first, options);
    expect(two).toMatchObject({ inserted: 72, skipped: 0, withoutPersonality: one.withoutPersonality });
    expect(one.withoutPersonality).toBeGreaterThanOrEqual(2);
    // Every text of the three full batches went through a worker thread; the last, short batch did not.
    expect(pool.pooledTexts).toBe(60);
    expect(await stored(ahead.db)).toBe(await stored(inline.db));

    // Again, unchanged: nothing is analysed ahead (the stored texts' hashes match).
    const again = await importPeople({ db: ahead.db, model, textPool: pool }, first, options);
    expect(again).toMatchObject({ unchanged: 72, inserted: 0, updated: 0 });
    expect(pool.pooledTexts).toBe(60);

    // A third of the people with new texts: only those are read ahead, and both stores agree.
    const changed = peopleFile('changed.jsonl', true);
    const inlineChanged = await importPeople({ db: inline.db, model }, changed, options);
    const aheadChanged = await importPeople({ db: ahead.db, model, textPool: pool }, changed, options);
    expect(aheadChanged).toMatchObject({ updated: inlineChanged.updated, unchanged: inlineChanged.unchanged });
    expect(inlineChanged.updated).toBeGreaterThanOrEqual(20);
    expect(pool.pooledTexts).toBe(60 + 20);
    expect(await stored(ahead.db)).toBe(await stored(inline.db));
  }, 120_000);
});
