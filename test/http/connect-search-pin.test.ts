import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertPerson } from '../../src/people/repository.ts';
import { validatePersonRecord } from '../../src/people/validate.ts';
import { createTestService, type TestService } from '../helpers/service.ts';

/**
 * The sync name search's answers pinned byte for byte: a speed-up of the search (its stages, the
 * statements, the C2 composition) must not move any of them. Forty stored people with varied
 * continuous readings; searches that match in each stage, by nickname and by email, that are
 * ambiguous, narrowed by company, and that find nobody. The request ids (of the search, and of the
 * request in an error body) are random, so they are blanked before hashing; everything else of
 * each status and body counts.
 */
const GIVEN = ['Robert', 'Elizabeth', 'Christine', 'Christina', 'Margaret', 'William', 'Katherine', 'Jonathan', 'Hélène', 'Samuel'];
const FAMILY = ['Ashford', 'Blackwood', 'Thornbury', 'Okafor-Bell', 'Lindqvist', "O'Brien", 'Marchetti', 'Greenfield'];
const TRAITS = ['extraversion', 'agreeableness', 'conscientiousness', 'openness', 'neuroticism'] as const;

/** A fixed sequence in [0, 1) (a linear congruential generator): the same people every run. */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

let service: TestService;
let org: { 'x-org-token': string };

beforeAll(async () => {
  service = await createTestService();
  org = { 'x-org-token': (await service.token('connect')).secret };
  const next = sequence(29);
  for (let n = 0; n < 40; n += 1) {
    const first = GIVEN[n % GIVEN.length] ?? 'Alex';
    const last = FAMILY[(n * 3) % FAMILY.length] ?? 'Ashford';
    const validated = validatePersonRecord({
      first_name: first,
      last_name: last,
      email: `person${n}@example.com`,
      company_name: n % 4 === 0 ? 'Contoso Ltd' : 'Northwind',
      location: n % 3 === 0 ? 'Austin, TX' : 'Leeds, UK',
      title: n % 5 === 0 ? 'Head of Sales' : 'Engineer',
    });
    if (!validated.ok) throw new Error(validated.reason);
    const { person } = await upsertPerson(service.ctx.db, validated.input, { source: 'import', analyze: () => ({ estimate: null, modelVersion: 'pin' }) });
    if (!person) throw new Error('not stored');
    const scores = Object.fromEntries(TRAITS.map((t) => [t, Math.round((next() * 2 - 1) * 1000) / 1000]));
    const confidence = Object.fromEntries(TRAITS.map((t) => [t, Math.round((0.05 + next() * 0.9) * 1000) / 1000]));
    const verified = n % 7 === 0;
    const estimate = { scores, confidence, source: verified ? 'assessment' : 'prediction', modelVersion: 'pin', wordCount: verified ? 0 : 50 + n * 37 };
    await service.ctx.db.query('UPDATE people SET estimate = $2, verified = $3 WHERE id = $1', [person.id, JSON.stringify(estimate), verified]);
  }
});
afterAll(() => service.close());

const SEARCHES: Array<Record<string, string>> = [
  ...GIVEN.flatMap((first_name) => FAMILY.map((last_name) => ({ first_name, last_name }))),
  { first_name: 'Bob', last_name: 'Ashford' },
  { first_name: 'Liz', last_name: 'Thornbury' },
  { first_name: 'Kate', last_name: 'Blackwood' },
  { first_name: 'Robert', last_name: 'Ashfrod' },
  { first_name: 'Rboert', last_name: 'Ashfordx' },
  { first_name: 'Margaret', last_name: 'Okafor' },
  { first_name: 'Helene', last_name: 'Obrien' },
  { first_name: 'William', last_name: 'Lindqvist', company_name: 'Contoso' },
  { first_name: 'William', last_name: 'Lindqvist', location: 'Austin, Texas' },
  { first_name: 'Nobody', last_name: 'Atall' },
  { email: 'person7@example.com' },
  { email: 'PERSON12@Example.com', first_name: 'Someone', last_name: 'Else' },
  { email: 'nobody@example.com', first_name: 'Jonathan', last_name: 'Greenfield' },
];

describe('POST /v1/profiles answers (pinned)', () => {
  it('answers every pinned search with the same status and body as before', async () => {
    const lines: string[] = [];
    const statuses = new Map<number, number>();
    for (const payload of SEARCHES) {
      const response = await service.connect.inject({ method: 'POST', url: '/v1/profiles', headers: org, payload });
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
      lines.push(`${JSON.stringify(payload)} ${response.statusCode} ${response.body.replace(/"request_id":"[^"]+"/g, '"request_id":"-"')}`);
    }
    // The pin means something only if it covers found people and nobody alike.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(30);
    expect(statuses.get(404) ?? 0).toBeGreaterThan(10);
    const digest = createHash('sha256').update(lines.join('\n')).digest('hex');
    expect(digest).toBe('a60ae1233bce924d0e8c64e0cb377ea42c12bcf88ad214655c71130e936625e0');
  });
});
