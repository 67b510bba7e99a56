import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import type { TraitEstimate } from '../../src/personality/types.ts';
import type { TextSample } from '../../src/people/person.ts';
import {
  countPeople,
  findPersonByEmail,
  findPersonByLinkedinUrl,
  findPersonByPublicId,
  listPeopleForRecompute,
  updateEstimate,
  upsertPerson,
} from '../../src/people/repository.ts';
import { upsertBatch, type UpsertOptions } from '../../src/people/upsert.ts';
import { validatePersonRecord } from '../../src/people/validate.ts';
import { useTestDb } from '../helpers/db.ts';

// The matching rules do not depend on the model: a stand-in that needs three words keeps these
// tests about the database. The import tests use the real text model.
function fakeEstimate(words: number): TraitEstimate {
  const scores = { extraversion: 0.5, agreeableness: 0.1, conscientiousness: 0, openness: 0, neuroticism: 0 };
  return { scores, confidence: { ...scores }, source: 'prediction', modelVersion: 'fake-1', wordCount: words };
}
const options: UpsertOptions = {
  source: 'import',
  analyze: (texts: TextSample[]) => {
    const words = texts.flatMap((t) => t.text.split(/\s+/)).filter(Boolean).length;
    return { estimate: words >= 3 ? fakeEstimate(words) : null, modelVersion: 'fake-1' };
  },
};

function input(record: Record<string, unknown>) {
  const result = validatePersonRecord(record);
  if (!result.ok) throw new Error(result.reason);
  return result.input;
}

const testDb = useTestDb();
let db: Db;
beforeAll(async () => {
  db = testDb.db;
});

describe('people repository', () => {
  it('inserts, finds by every spelling, then updates only what a row gives', async () => {
    const first = await upsertPerson(db, input({ email: 'Ada.Lind@Example.com', linkedin_url: 'https://www.linkedin.com/in/ada-lind-demo', first_name: 'Ada', title: 'Engineer', texts: [{ type: 'bio', text: 'Ada builds bridges carefully.' }] }), options);
    expect(first.outcome.kind).toBe('inserted');
    const person = first.person;
    expect(person).toMatchObject({ firstName: 'Ada', email: 'Ada.Lind@Example.com', emailNormalized: 'ada.lind@example.com', linkedinKey: 'in/ada-lind-demo', modelVersion: 'fake-1', verified: false, source: 'import' });
    expect(person?.id).toMatch(/^per_/);
    expect(person?.publicId.length).toBeGreaterThan(20);
    expect(person?.estimate?.wordCount).toBe(4);

    for (const email of ['ada.lind@example.com', '  ADA.LIND@EXAMPLE.COM']) expect((await findPersonByEmail(db, email))?.id).toBe(person?.id);
    for (const url of ['linkedin.com/in/Ada-Lind-Demo/?trk=x', 'http://uk.linkedin.com/in/ada%2Dlind-demo']) expect((await findPersonByLinkedinUrl(db, url))?.id).toBe(person?.id);
    expect((await findPersonByPublicId(db, person?.publicId ?? ''))?.id).toBe(person?.id);
    expect(await findPersonByEmail(db, 'not an email')).toBeNull();
    expect(await findPersonByLinkedinUrl(db, 'https://example.com/in/ada')).toBeNull();

    // Matched by URL alone; the new address replaces the old one, the title is kept.
    const moved = await upsertPerson(db, input({ email: 'ada@example.org', linkedin_url: 'linkedin.com/in/ada-lind-demo', company_name: 'Harbor Works' }), options);
    expect(moved.outcome.kind).toBe('updated');
    expect(moved.person).toMatchObject({ id: person?.id, emailNormalized: 'ada@example.org', title: 'Engineer', companyName: 'Harbor Works' });
    expect(moved.person?.estimate?.wordCount).toBe(4);
    expect(await findPersonByEmail(db, 'ada.lind@example.com')).toBeNull();

    const again = await upsertPerson(db, input({ email: 'ada@example.org', linkedin_url: 'linkedin.com/in/ada-lind-demo', company_name: 'Harbor Works' }), options);
    expect(again.outcome.kind).toBe('unchanged');
  });

  it('skips a row whose email and URL belong to two different people', async () => {
    await upsertPerson(db, input({ email: 'bo@example.com' }), options);
    await upsertPerson(db, input({ linkedin_url: 'linkedin.com/in/cy-demo' }), options);
    const before = await countPeople(db);
    const clash = await upsertPerson(db, input({ email: 'bo@example.com', linkedin_url: 'https://www.linkedin.com/in/cy-demo' }), options);
    expect(clash.outcome).toEqual({ kind: 'skipped', reason: expect.stringMatching(/email matches one stored person and linkedin_url another/) });
    expect(clash.person).toBeNull();
    expect(await countPeople(db)).toBe(before);
  });

  it('keeps too little text as no personality, and pages people for recompute', async () => {
    const short = await upsertPerson(db, input({ email: 'short@example.com', texts: [{ type: 'email', text: 'Thanks!' }] }), options);
    expect(short.person?.estimate).toBeNull();
    expect(short.person?.modelVersion).toBe('fake-1');

    expect(await listPeopleForRecompute(db, '', 100, { modelVersion: 'fake-1' })).toEqual([]);
    const all = await listPeopleForRecompute(db, '', 100, { modelVersion: 'fake-1', all: true });
    expect(all.length).toBe(await countPeople(db));
    const page1 = await listPeopleForRecompute(db, '', 2, { modelVersion: 'fake-2' });
    const page2 = await listPeopleForRecompute(db, page1.at(-1)?.id ?? '', 100, { modelVersion: 'fake-2' });
    expect([...page1, ...page2].map((p) => p.id)).toEqual(all.map((p) => p.id));

    const id = short.person?.id ?? '';
    await updateEstimate(db, id, fakeEstimate(9), 'fake-2');
    const updated = await findPersonByEmail(db, 'short@example.com');
    expect(updated?.estimate?.wordCount).toBe(9);
    expect(updated?.modelVersion).toBe('fake-2');
    expect((await listPeopleForRecompute(db, '', 100, { modelVersion: 'fake-2' })).map((p) => p.id)).not.toContain(id);
  });

  it('never overwrites the personality of a verified person', async () => {
    const created = await upsertPerson(db, input({ email: 'vera@example.com', texts: [{ type: 'bio', text: 'one two three four' }] }), options);
    await db.query('UPDATE people SET verified = true WHERE id = $1', [created.person?.id]);
    const after = await upsertPerson(db, input({ email: 'vera@example.com', texts: [{ type: 'bio', text: 'a b c d e f g h' }] }), options);
    expect(after.outcome.kind).toBe('updated');
    expect(after.person?.texts).toEqual([{ type: 'bio', text: 'a b c d e f g h' }]);
    expect(after.person?.estimate?.wordCount).toBe(4);
    expect(await listPeopleForRecompute(db, '', 100, { modelVersion: 'other', all: true })).not.toContainEqual(expect.objectContaining({ id: created.person?.id }));
  });

  it('handles repeats and moved identifiers inside one batch', async () => {
    const rows = [
      input({ email: 'dup@example.com', first_name: 'Dee' }),
      input({ email: 'dup@example.com', first_name: 'Dee' }),
      input({ email: 'DUP@example.com', first_name: 'Dee', last_name: 'Upton' }),
      input({ email: 'moved@example.com', linkedin_url: 'linkedin.com/in/mover-demo' }),
      // The mover takes a new address; a new person takes the old one, in the same batch.
      input({ email: 'moved-new@example.com', linkedin_url: 'linkedin.com/in/mover-demo' }),
      input({ email: 'moved@example.com', first_name: 'Newcomer' }),
    ];
    const outcomes = await db.transaction((tx) => upsertBatch(tx, rows, options));
    expect(outcomes.map((o) => o.kind)).toEqual(['inserted', 'unchanged', 'updated', 'inserted', 'updated', 'inserted']);
    expect(await findPersonByEmail(db, 'dup@example.com')).toMatchObject({ firstName: 'Dee', lastName: 'Upton', email: 'dup@example.com' });
    expect((await findPersonByLinkedinUrl(db, 'linkedin.com/in/mover-demo'))?.emailNormalized).toBe('moved-new@example.com');
    expect((await findPersonByEmail(db, 'moved@example.com'))?.firstName).toBe('Newcomer');
  });
});
