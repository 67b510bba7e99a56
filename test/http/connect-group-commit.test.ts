import { beforeAll, describe, expect, it } from 'vitest';
import { FinishedRequestWriter } from '../../src/connect/finished-writer.ts';
import type { RequestOutcome } from '../../src/connect/requests.ts';
import type { Db, Queryable } from '../../src/db/client.ts';
import { analyzeTexts } from '../../src/people/analyze.ts';
import { upsertPerson } from '../../src/people/repository.ts';
import { validatePersonRecord } from '../../src/people/validate.ts';
import { OUTGOING_TEXT, RESERVED_TEXT } from '../fixtures/texts.ts';
import { useTestService } from '../helpers/service.ts';

// Sync searches store their finished requests many to one INSERT (src/connect/finished-writer.ts).
const service = useTestService();
let org: { 'x-org-token': string };
let tokenId: string;

const GIVEN = ['Ada', 'Bruno', 'Chiara', 'Dmitri', 'Esther', 'Farid', 'Greta', 'Hiro', 'Ines', 'Jonas'];

beforeAll(async () => {
  const token = await service.token('connect');
  org = { 'x-org-token': token.secret };
  tokenId = token.id;
  for (const [i, first] of GIVEN.entries()) {
    const validated = validatePersonRecord({
      first_name: first,
      last_name: 'Vandermolen',
      email: `${first.toLowerCase()}.vandermolen@example.com`,
      texts: [{ type: 'various', text: i % 2 === 0 ? OUTGOING_TEXT : RESERVED_TEXT }],
    });
    if (!validated.ok) throw new Error(validated.reason);
    await upsertPerson(service.ctx.db, validated.input, { source: 'import', analyze: (texts) => analyzeTexts(service.ctx.model, texts) });
  }
});

/** The database, counting the finished-request INSERTs that reach it. */
function counting(db: Db): { db: Queryable; inserts: () => number } {
  let inserts = 0;
  return {
    db: {
      query: (sql, params) => db.query(sql, params),
      run: (statement, params) => {
        if (statement.name === 'profile_requests_insert_finished') inserts += 1;
        return db.run(statement, params);
      },
    },
    inserts: () => inserts,
  };
}

const outcome = (firstName: string): RequestOutcome => ({
  status: 'complete',
  profile: {
    personId: null,
    firstName,
    lastName: 'Example',
    title: null,
    estimate: {
      scores: { extraversion: 0.2, agreeableness: 0.1, conscientiousness: 0, openness: 0, neuroticism: 0 },
      confidence: { extraversion: 0.3, agreeableness: 0.3, conscientiousness: 0.2, openness: 0.2, neuroticism: 0.2 },
      source: 'prediction',
      modelVersion: 'test',
      wordCount: 120,
    },
    hasAssessment: false,
  },
});

const storedNames = async (ids: string[]) =>
  (await service.ctx.db.query<{ id: string; first_name: string }>('SELECT id, first_name FROM profile_requests WHERE id = ANY($1::text[]) ORDER BY id', [ids])).map(
    (r) => `${r.id}:${r.first_name}`,
  );

describe('group commit of answered sync searches', () => {
  it('concurrent sync searches over HTTP are all answered, and each answer is stored and readable', async () => {
    const responses = await Promise.all(
      GIVEN.flatMap((first) => [0, 1, 2].map(() => service.connect.inject({ method: 'POST', url: '/v1/profiles', headers: org, payload: { first_name: first, last_name: 'Vandermolen' } }))),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(responses.map(() => 200));
    const ids = responses.map((r) => r.json().request_id as string);
    expect(new Set(ids).size).toBe(30);
    for (const [i, id] of ids.entries()) {
      const result = await service.connect.inject({ url: `/v1/profiles/results/${id}`, headers: org });
      expect(result.json()).toMatchObject({ status: 'complete', request_id: id, info: { first_name: GIVEN[Math.floor(i / 3)], last_name: 'Vandermolen' } });
    }
  });

  it('rows handed over in one turn of the event loop go in one statement; later ones in the next', async () => {
    const { db, inserts } = counting(service.ctx.db);
    const writer = new FinishedRequestWriter(db);
    const first = Array.from({ length: 25 }, (_, i) => ({ id: `pr_groupcommit_a${String(i).padStart(4, '0')}`, tokenId, outcome: outcome(`A${i}`) }));
    await Promise.all(first.map((request) => writer.write(request)));
    expect(inserts()).toBe(1);
    const second = Array.from({ length: 5 }, (_, i) => ({ id: `pr_groupcommit_b${String(i).padStart(4, '0')}`, tokenId, outcome: outcome(`B${i}`) }));
    await Promise.all(second.map((request) => writer.write(request)));
    expect(inserts()).toBe(2);
    const all = [...first, ...second];
    expect(await storedNames(all.map((r) => r.id))).toEqual(all.map((r) => `${r.id}:${r.outcome.status === 'complete' ? r.outcome.profile.firstName : ''}`).sort());
  });

  it('a batch larger than the limit is split, and every row is stored', async () => {
    const { db, inserts } = counting(service.ctx.db);
    const writer = new FinishedRequestWriter(db, 4);
    const requests = Array.from({ length: 10 }, (_, i) => ({ id: `pr_groupcommit_c${String(i).padStart(4, '0')}`, tokenId, outcome: outcome(`C${i}`) }));
    await Promise.all(requests.map((request) => writer.write(request)));
    expect(inserts()).toBe(3);
    expect(await storedNames(requests.map((r) => r.id))).toHaveLength(10);
  });

  it('a row the database refuses fails only its own request; the rest of its batch is stored', async () => {
    const writer = new FinishedRequestWriter(service.ctx.db);
    const good = Array.from({ length: 4 }, (_, i) => ({ id: `pr_groupcommit_d${String(i).padStart(4, '0')}`, tokenId, outcome: outcome(`D${i}`) }));
    // An id already stored: the primary key refuses it, and with it the whole first statement.
    const duplicate = { id: good[0]?.id ?? '', tokenId, outcome: outcome('Duplicate') };
    const settled = await Promise.allSettled([...good, duplicate].map((request) => writer.write(request)));
    expect(settled.slice(0, 4).map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    const refused = settled[4];
    expect(refused?.status).toBe('rejected');
    expect(refused?.status === 'rejected' ? String(refused.reason) : '').toMatch(/duplicate key|unique/i);
    expect(await storedNames(good.map((r) => r.id))).toEqual(good.map((r) => `${r.id}:${r.outcome.status === 'complete' ? r.outcome.profile.firstName : ''}`));
  });

  it('when the database fails, every waiting request fails with its error and none hangs', async () => {
    const broken: Queryable = {
      query: () => Promise.reject(new Error('database unavailable')),
      run: () => Promise.reject(new Error('database unavailable')),
    };
    const writer = new FinishedRequestWriter(broken);
    const settled = await Promise.allSettled(
      [0, 1, 2].map((i) => writer.write({ id: `pr_groupcommit_e${String(i).padStart(4, '0')}`, tokenId, outcome: outcome('E') })),
    );
    expect(settled.map((s) => (s.status === 'rejected' ? String(s.reason) : 'stored'))).toEqual([
      'Error: database unavailable',
      'Error: database unavailable',
      'Error: database unavailable',
    ]);
    await writer.idle();
  });
});
