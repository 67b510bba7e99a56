import { beforeAll, describe, expect, it } from 'vitest';
import type { Db, Queryable, Row, Statement } from '../../src/db/client.ts';
import type { TraitEstimate } from '../../src/personality/types.ts';
import { PersonLookups } from '../../src/people/lookups.ts';
import { upsertPerson, type Person } from '../../src/people/repository.ts';
import type { UpsertOptions } from '../../src/people/upsert.ts';
import { validatePersonRecord } from '../../src/people/validate.ts';
import { useTestDb } from '../helpers/db.ts';

const estimate: TraitEstimate = {
  scores: { extraversion: 0.5, agreeableness: 0.1, conscientiousness: 0, openness: 0, neuroticism: 0 },
  confidence: { extraversion: 0.5, agreeableness: 0.5, conscientiousness: 0.5, openness: 0.5, neuroticism: 0.5 },
  source: 'prediction',
  modelVersion: 'fake-1',
  wordCount: 40,
};
const options: UpsertOptions = { source: 'import', analyze: () => ({ estimate, modelVersion: 'fake-1' }) };

/** The statements the lookups sent, with the keys of each: the database is real, only watched. */
function watched(db: Db): { db: Queryable; sent: { name: string; keys: string[] }[]; failNext: () => void } {
  const sent: { name: string; keys: string[] }[] = [];
  let fail = false;
  return {
    sent,
    failNext: () => {
      fail = true;
    },
    db: {
      query: (sql, params) => db.query(sql, params),
      async run<T extends Row>(statement: Statement, params: readonly unknown[]): Promise<T[]> {
        sent.push({ name: statement.name, keys: params[0] as string[] });
        if (fail) {
          fail = false;
          throw new Error('connection lost');
        }
        return db.run<T>(statement, params);
      },
    },
  };
}

const testDb = useTestDb();
const people: Person[] = [];
beforeAll(async () => {
  for (let i = 0; i < 6; i += 1) {
    const record = validatePersonRecord({ first_name: `Batch${i}`, email: `batch${i}@example.com`, linkedin_url: `https://www.linkedin.com/in/batch-${i}` });
    if (!record.ok) throw new Error(record.reason);
    const { person } = await upsertPerson(testDb.db, record.input, options);
    if (!person) throw new Error('not stored');
    people.push(person);
  }
});

const nameOf = (person: { firstName: string | null } | null) => person?.firstName ?? null;

describe('PersonLookups', () => {
  it('answers the lookups asked in one turn with one statement per kind of key, each with its own person', async () => {
    const { db, sent } = watched(testDb.db);
    const lookups = new PersonLookups(db);
    const [p0, p1, p2, p3] = people;
    const found = await Promise.all([
      lookups.summary({ email: 'BATCH3@Example.com' }),
      lookups.summary({ email: 'nobody@example.com' }),
      lookups.summary({ email: 'batch0@example.com' }),
      lookups.summary({ linkedinUrl: 'linkedin.com/in/batch-2/' }),
      lookups.summary({ publicId: p1?.publicId ?? '' }),
      lookups.summary({ email: 'batch3@example.com' }),
      lookups.summary({ publicId: 'no-such-page' }),
      lookups.summary({ linkedinUrl: 'https://www.linkedin.com/in/batch-0' }),
      lookups.summary({ email: 'not an email' }),
    ]);
    expect(found.map(nameOf)).toEqual(['Batch3', null, 'Batch0', 'Batch2', 'Batch1', 'Batch3', null, 'Batch0', null]);
    expect(found[0]?.id).toBe(p3?.id);
    expect(found[3]?.id).toBe(p2?.id);
    expect(found[4]?.id).toBe(p1?.id);
    expect(found[7]?.id).toBe(p0?.id);
    // What shows a profile, never the texts.
    expect(found[0]).not.toHaveProperty('texts');
    expect(found[0]?.estimate).toEqual(estimate);
    // The same person asked for twice in one statement: equal, but objects of their own.
    expect(found[5]).toEqual(found[0]);
    expect(found[5]).not.toBe(found[0]);
    expect(found[5]?.estimate).not.toBe(found[0]?.estimate);
    expect(sent.map((s) => s.name).sort()).toEqual(['people_by_email_normalized_batch', 'people_by_linkedin_key_batch', 'people_by_public_id_batch']);
    expect(sent.find((s) => s.name === 'people_by_email_normalized_batch')?.keys).toEqual(['batch3@example.com', 'nobody@example.com', 'batch0@example.com', 'batch3@example.com']);
  });

  it('sends a lone lookup at once, and a later one in a statement of its own', async () => {
    const { db, sent } = watched(testDb.db);
    const lookups = new PersonLookups(db);
    expect(nameOf(await lookups.summary({ email: 'batch4@example.com' }))).toBe('Batch4');
    expect(nameOf(await lookups.summary({ email: 'batch5@example.com' }))).toBe('Batch5');
    expect(sent.map((s) => s.keys)).toEqual([['batch4@example.com'], ['batch5@example.com']]);
  });

  it('reads the database as it is now: a person changed between two lookups is found changed', async () => {
    const lookups = new PersonLookups(testDb.db);
    expect(nameOf(await lookups.summary({ email: 'batch5@example.com' }))).toBe('Batch5');
    await testDb.db.query("UPDATE people SET first_name = 'Renamed' WHERE email_normalized = 'batch5@example.com'");
    expect(nameOf(await lookups.summary({ email: 'batch5@example.com' }))).toBe('Renamed');
    await testDb.db.query("UPDATE people SET first_name = 'Batch5' WHERE email_normalized = 'batch5@example.com'");
  });

  it('splits a busy turn into statements of at most maxBatch keys', async () => {
    const { db, sent } = watched(testDb.db);
    const lookups = new PersonLookups(db, { maxBatch: 4 });
    const found = await Promise.all(Array.from({ length: 10 }, (_, i) => lookups.summary({ email: `batch${i % 6}@example.com` })));
    expect(found.map(nameOf)).toEqual(Array.from({ length: 10 }, (_, i) => `Batch${i % 6}`));
    expect(sent.map((s) => s.keys.length)).toEqual([4, 4, 2]);
  });

  it('fails every lookup of a statement that failed, only those, and the next turn reads again', async () => {
    const { db, failNext } = watched(testDb.db);
    const lookups = new PersonLookups(db);
    failNext();
    const failed = await Promise.allSettled([
      lookups.summary({ email: 'batch1@example.com' }),
      lookups.summary({ linkedinUrl: 'linkedin.com/in/batch-3' }),
      lookups.summary({ email: 'batch2@example.com' }),
    ]);
    // The email statement is sent first (its lookup came first) and fails; the URL one is read.
    expect(failed.map((r) => (r.status === 'rejected' ? String(r.reason) : nameOf(r.value)))).toEqual(['Error: connection lost', 'Batch3', 'Error: connection lost']);
    expect(nameOf(await lookups.summary({ email: 'batch1@example.com' }))).toBe('Batch1');
  });
});
