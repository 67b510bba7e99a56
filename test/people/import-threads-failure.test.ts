import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorKind } from '../../src/people/analysis-threads.ts';
import { analyzeTexts } from '../../src/people/analyze.ts';
import { DEMO_PEOPLE_FILE } from '../../src/people/demo/seed.ts';
import { importPeople } from '../../src/people/import.ts';
import type { TextSample } from '../../src/people/person.ts';
import { loadModel } from '../../src/personality/text/model.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

/**
 * When the analysis threads fail (here: their model file cannot be read), the import goes on
 * reading the texts on the main thread and says so once in the log, without anyone's data.
 */
const demo = readFileSync(DEMO_PEOPLE_FILE, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { texts?: TextSample[] }).texts ?? []);
const PEOPLE = 30;
const people = Array.from({ length: PEOPLE }, (_, i) => demo[i % demo.length] ?? []);
const lines = people.map((texts, i) => JSON.stringify({ first_name: `Ingrid${i}`, last_name: 'Secretname', email: `private.${i}@example.com`, texts }));

describe('analysis threads that fail', () => {
  let testDb: TestDb;
  let dir: string;
  beforeAll(async () => {
    testDb = await createTestDb();
    dir = mkdtempSync(path.join(tmpdir(), 'rapport-import-threads-'));
    writeFileSync(path.join(dir, 'people.jsonl'), `${lines.join('\n')}\n`);
  });
  afterAll(async () => {
    await testDb.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('leave the import to read inline, logged once with no person data', { timeout: 120_000 }, async () => {
    const warnings: { fields: unknown; message: string }[] = [];
    const logger = { warn: (fields: unknown, message: string) => warnings.push({ fields, message }) };
    const deps = { db: testDb.db, model: loadModel(), modelPath: path.join(dir, 'no-such-model.json'), logger };
    // Batches of 10: three batches, so two are read ahead (a file of one batch never starts threads).
    const summary = await importPeople(deps, path.join(dir, 'people.jsonl'), { batchSize: 10, analysisThreads: 1 });
    // Every estimate stored as reading the texts inline gives it.
    const expected = people.map((texts, i) => [`private.${i}@example.com`, analyzeTexts(deps.model, texts).estimate] as const);
    expect(summary).toMatchObject({ read: PEOPLE, inserted: PEOPLE, skipped: 0, withoutPersonality: expected.filter(([, estimate]) => estimate === null).length });
    const stored = await testDb.db.query<{ email_normalized: string; estimate: unknown }>('SELECT email_normalized, estimate FROM people');
    expect(new Map(stored.map((row) => [row.email_normalized, row.estimate]))).toEqual(new Map(expected));

    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toMatch(/analysis threads failed.*main thread/);
    const logged = JSON.stringify(warnings);
    expect(logged).toMatch(/ENOENT/);
    for (const secret of ['private.', 'example.com', 'Ingrid', 'Secretname', 'no-such-model']) expect(logged).not.toContain(secret);
  });

  it("a failure's description keeps its class, code and words, not what it quotes", () => {
    const refused = Object.assign(new Error('duplicate key value violates unique constraint "people_email" for (anna@example.com) [Anna]'), { code: '23505' });
    expect(errorKind(refused)).toBe('Error 23505: duplicate key value violates unique constraint … for … …');
    expect(errorKind(new TypeError(`cannot read 'bio' of ${'x'.repeat(500)}`))).toHaveLength('TypeError: '.length + 200);
    expect(errorKind('thrown text')).toBe('string');
  });
});
