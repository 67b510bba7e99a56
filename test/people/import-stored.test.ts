import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryOne } from '../../src/db/client.ts';
import { DEMO_PEOPLE_FILE } from '../../src/people/demo/seed.ts';
import { importPeople, type ImportOptions } from '../../src/people/import.ts';
import { DEFAULT_MODEL_PATH, loadModel } from '../../src/personality/text/model.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

/**
 * What an import stores, pinned: a hash of every stored column but the random ids and the
 * times, for a fixed file imported and then a second file of updates, unchanged rows and new
 * people. The hashes were taken from the import as it was before its analysis ran on worker
 * threads; any way of importing (inline or on threads, any batch size) must store the same.
 */
const FIRST_IMPORT = '387ef0889ce499e2896815d52d046648';
const SECOND_IMPORT = '0eed70a8e8498b2001d0a99bfe261fd1';

const demoTexts = readFileSync(DEMO_PEOPLE_FILE, 'utf8')
  .trim()
  .split('\n')
  .map((line) => (JSON.parse(line) as { texts: { type: string; text: string }[] }).texts);

/** Person i's texts: a demo person's, made this person's own by a last sentence (so each is read anew). */
const textsOf = (i: number, edit = '') =>
  (demoTexts[i % demoTexts.length] ?? []).map((t, k) => (k === 0 ? { ...t, text: `${t.text} I have worked here ${i}${edit} years.` } : t));

const person = (i: number, edit = '') =>
  JSON.stringify({
    first_name: `Frida${i}`,
    last_name: i % 3 === 0 ? `Ørsted-Łukasz ${i}` : `Nakamura${i}`,
    email: i % 7 === 0 ? undefined : `Person.${i}@Example.com`,
    linkedin_url: i % 5 === 0 ? undefined : `https://www.linkedin.com/in/person-${i}-pin`,
    company_name: `Company ${i % 13}`,
    title: i % 2 === 0 ? 'Analyst' : undefined,
    location: 'Springfield',
    // Every eleventh person has no text: stored without a personality.
    texts: i % 11 === 0 ? undefined : textsOf(i, edit),
  });

const FIRST = Array.from({ length: 1_200 }, (_, i) => person(i));
const SECOND = [
  ...Array.from({ length: 100 }, (_, i) => person(i, ' and more')), // texts changed: read again
  ...Array.from({ length: 100 }, (_, i) => person(100 + i)), // unchanged
  ...Array.from({ length: 50 }, (_, i) => person(200 + i).replace('"Springfield"', '"Shelbyville"')), // a field changed, same texts
  ...Array.from({ length: 60 }, (_, i) => person(5_000 + i)), // new
];

const STORED_HASH = `SELECT md5(string_agg(t::text, E'\\n' ORDER BY t::text)) AS hash FROM (
  SELECT email, email_normalized, linkedin_url, linkedin_key, first_name, last_name, photo_url, company_name, title, location,
    texts, estimate, model_version, verified, source, texts_hash, first_key, last_key, name_key FROM people) AS t`;

let dir: string;
const model = loadModel();
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rapport-import-stored-'));
  writeFileSync(path.join(dir, 'first.jsonl'), `${FIRST.join('\n')}\n`);
  writeFileSync(path.join(dir, 'second.jsonl'), `${SECOND.join('\n')}\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function storedAfterImports(options: ImportOptions): Promise<{ hashes: string[]; counts: unknown[] }> {
  const testDb: TestDb = await createTestDb();
  try {
    const deps = { db: testDb.db, model, modelPath: DEFAULT_MODEL_PATH };
    const hashes: string[] = [];
    const counts: unknown[] = [];
    for (const name of ['first.jsonl', 'second.jsonl', 'second.jsonl']) {
      const { read, inserted, updated, unchanged, skipped, withoutPersonality } = await importPeople(deps, path.join(dir, name), options);
      counts.push({ read, inserted, updated, unchanged, skipped, withoutPersonality });
      hashes.push((await queryOne<{ hash: string }>(testDb.db, STORED_HASH))?.hash ?? '');
    }
    return { hashes, counts };
  } finally {
    await testDb.close();
  }
}

const EXPECTED_COUNTS = [
  // Every 35th row names no one (no email, no profile URL): skipped.
  { read: 1_200, inserted: 1_165, updated: 0, unchanged: 0, skipped: 35, withoutPersonality: 178 },
  { read: 310, inserted: 58, updated: 136, unchanged: 106, skipped: 10, withoutPersonality: 44 },
  { read: 310, inserted: 0, updated: 0, unchanged: 300, skipped: 10, withoutPersonality: 44 },
];

describe('what an import stores', () => {
  it('stores the pinned rows, in batches of 500', { timeout: 120_000 }, async () => {
    const { hashes, counts } = await storedAfterImports({});
    expect(counts).toEqual(EXPECTED_COUNTS);
    expect(hashes).toEqual([FIRST_IMPORT, SECOND_IMPORT, SECOND_IMPORT]);
  });

  it('stores the same rows in small batches', { timeout: 120_000 }, async () => {
    const { hashes, counts } = await storedAfterImports({ batchSize: 70 });
    expect(counts).toEqual(EXPECTED_COUNTS);
    expect(hashes).toEqual([FIRST_IMPORT, SECOND_IMPORT, SECOND_IMPORT]);
  });
});
