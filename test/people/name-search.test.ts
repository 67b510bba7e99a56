import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { nameKey } from '../../src/people/name-key.ts';
import { buildNicknameTable, nicknameTable } from '../../src/people/nicknames.ts';
import { editDistance, findMatch, keySimilarity, scoreCandidate, type Candidate, type SearchCriteria } from '../../src/people/search.ts';
import { useTestDb } from '../helpers/db.ts';

const testDb = useTestDb();
let db: Db;

interface Row {
  id: string;
  first: string;
  last: string;
  email?: string;
  company?: string;
  location?: string;
}

const PEOPLE: Row[] = [
  { id: 'p_robert', first: 'Robert', last: 'Jones', email: 'rjones@example.com', company: 'Acme Corp', location: 'Austin, TX' },
  { id: 'p_jose', first: 'José', last: 'García-Márquez', company: 'Globex' },
  { id: 'p_smith_acme', first: 'John', last: 'Smith', company: 'Acme Inc', location: 'Denver, CO' },
  { id: 'p_smith_globex', first: 'John', last: 'Smith', company: 'Globex', location: 'Boston, MA' },
  { id: 'p_elizabeth', first: 'Elizabeth', last: 'Thornbury' },
  { id: 'p_michael', first: 'Michael', last: 'Okonkwo' },
  { id: 'p_joan', first: 'Joan', last: 'Whitfield' },
  { id: 'p_zoe', first: 'Zoë', last: 'Åkesson' },
  { id: 'p_grace', first: 'Grace', last: 'Okonkwo-Bell' },
  { id: 'p_mark_smith', first: 'Mark', last: 'Lee-Smith' },
  { id: 'p_mark_jones', first: 'Mark', last: 'Lee-Jones' },
];

beforeAll(async () => {
  db = testDb.db;
  for (const p of PEOPLE) {
    await db.query(
      `INSERT INTO people (id, public_id, email, email_normalized, linkedin_key, first_name, last_name, company_name, location)
       VALUES ($1, $1 || '_pub', $2, lower($2), 'in/' || $1, $3, $4, $5, $6)`,
      [p.id, p.email ?? null, p.first, p.last, p.company ?? null, p.location ?? null],
    );
  }
});

function criteria(c: Partial<SearchCriteria>): SearchCriteria {
  return { firstName: null, lastName: null, email: null, companyName: null, location: null, ...c };
}

async function matchedId(c: Partial<SearchCriteria>): Promise<string | null> {
  const result = await findMatch(db, criteria(c));
  return result.person?.id ?? null;
}

describe('name keys', () => {
  it('the JavaScript key and the database key agree', async () => {
    const names = ['  José-María  O’Neil ', 'Łukasz Żółć', 'Zoë Åkesson', 'STRAUß', 'Ægir Ørsted', 'Renée Dupré', 'Çağla Şahin', '李 小龍', 'Anne_Marie.Smith'];
    const rows = await db.query<{ key: string }>('SELECT rapport_name_key(n) AS key FROM unnest($1::text[]) WITH ORDINALITY AS t(n, i) ORDER BY i', [names]);
    expect(rows.map((r) => r.key)).toEqual(names.map((n) => nameKey(n)));
    expect(nameKey('  José-María  O’Neil ')).toBe('jose maria o neil');
  });

  it('edit distance counts a swap of neighbours as one edit', () => {
    expect(editDistance('smith', 'smiht')).toBe(1);
    expect(editDistance('john', 'joan')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('edit distance counts characters, not UTF-16 units, and keeps counting right after a key longer than any before', () => {
    expect(editDistance('😀a', 'a😀')).toBe(1);
    expect(editDistance('zoë', 'zoe')).toBe(1);
    expect(keySimilarity('😀😀ab', '😀😀ab')).toBe(1);
    expect(keySimilarity('😀b', 'ab')).toBe(0.5);
    // 60 characters: wider than the rows the distance reuses from call to call.
    const long = 'abcdefghijklmnopqrstuvwxyz'.repeat(2) + 'abcdefgh';
    expect(editDistance(long, long.slice(0, 30) + long[31] + long[30] + long.slice(32))).toBe(1);
    expect(editDistance(long, long.slice(3))).toBe(3);
    expect(editDistance('roebrt', 'robert')).toBe(1);
    expect(editDistance('smith', 'smiht')).toBe(1);
  });

  it('a candidate scores by edit similarity, and one too far away in length is set aside', () => {
    const candidate = (first: string, last: string): Candidate => ({
      id: 'p', first_name: first, last_name: last, title: null, company_name: null, location: null, estimate: null, verified: false, first_key: first, last_key: last, complete: true,
    });
    const query = { firstKey: 'micheal', lastKey: 'thornberry', companyName: null, location: null };
    expect(scoreCandidate(query, candidate('michael', 'thornbury'))).toBeCloseTo(0.4 * keySimilarity('micheal', 'michael') + 0.6 * keySimilarity('thornberry', 'thornbury'), 10);
    expect(scoreCandidate(query, candidate('mich', 'thornberry'))).toBeNull();
    expect(scoreCandidate(query, candidate('michael', 'thorn'))).toBeNull();
  });

  it('nickname groups are symmetric and a shared short form belongs to each name', () => {
    const table = buildNicknameTable([
      ['christopher', 'chris'],
      ['christine', 'chris'],
    ]);
    expect([...(table.get('chris') ?? [])].sort()).toEqual(['christine', 'christopher']);
    expect(table.get('christopher')?.has('chris')).toBe(true);
    expect(nicknameTable().get('bob')?.has('robert')).toBe(true);
    expect(nicknameTable().get('liz')?.has('elizabeth')).toBe(true);
    expect(nicknameTable().size).toBeGreaterThan(150);
  });
});

describe('findMatch: must match', () => {
  it('an email in any case, even with names that would not match', async () => {
    expect(await matchedId({ email: ' RJones@Example.COM ' })).toBe('p_robert');
    const result = await findMatch(db, criteria({ email: 'rjones@example.com', firstName: 'Someone', lastName: 'Else' }));
    expect(result).toMatchObject({ by: 'email', person: { id: 'p_robert' } });
  });

  it('names in another case, without accents, or with accents the stored name lacks', async () => {
    expect(await matchedId({ firstName: 'ROBERT', lastName: 'jones' })).toBe('p_robert');
    expect(await matchedId({ firstName: 'Jose', lastName: 'Garcia Marquez' })).toBe('p_jose');
    expect(await matchedId({ firstName: 'zoe', lastName: 'akesson' })).toBe('p_zoe');
  });

  it('common nicknames both ways', async () => {
    expect(await matchedId({ firstName: 'Bob', lastName: 'Jones' })).toBe('p_robert');
    expect(await matchedId({ firstName: 'Liz', lastName: 'Thornbury' })).toBe('p_elizabeth');
    expect(await matchedId({ firstName: 'Mike', lastName: 'Okonkwo' })).toBe('p_michael');
  });

  it('small typos in the first or the last name', async () => {
    expect(await matchedId({ firstName: 'Micheal', lastName: 'Okonkwo' })).toBe('p_michael');
    expect(await matchedId({ firstName: 'Elizabeth', lastName: 'Thornberry' })).toBe('p_elizabeth');
    expect(await matchedId({ firstName: 'Robert', lastName: 'Jnoes' })).toBe('p_robert');
  });

  it('a typo of the given name answers the whole person, as the exact name does', async () => {
    // Stage 1 reads only the keys of those with the same initial; the one picked is read again whole.
    await db.query('UPDATE people SET title = $2, verified = true, estimate = $3 WHERE id = $1', ['p_michael', 'Engineer', JSON.stringify({ scores: { extraversion: 0.4 } })]);
    const exact = await findMatch(db, criteria({ firstName: 'Michael', lastName: 'Okonkwo' }));
    const typo = await findMatch(db, criteria({ firstName: 'Micheal', lastName: 'Okonkwo' }));
    const whole = { id: 'p_michael', firstName: 'Michael', lastName: 'Okonkwo', title: 'Engineer', estimate: { scores: { extraversion: 0.4 } }, verified: true };
    expect(exact).toMatchObject({ by: 'name', score: 1, person: whole });
    expect(typo).toMatchObject({ by: 'name', person: whole });
    await db.query('UPDATE people SET title = NULL, verified = false, estimate = NULL WHERE id = $1', ['p_michael']);
  });

  it('one part of a double-barrelled last name, or the whole of it for one part stored', async () => {
    expect(await matchedId({ firstName: 'Grace', lastName: 'Okonkwo' })).toBe('p_grace');
    expect(await matchedId({ firstName: 'Grace', lastName: 'Bell' })).toBe('p_grace');
    expect(await matchedId({ firstName: 'José', lastName: 'García' })).toBe('p_jose');
    expect(await matchedId({ firstName: 'Jose', lastName: 'Marquez' })).toBe('p_jose');
    expect(await matchedId({ firstName: 'Michael', lastName: 'Okonkwo-Adeyemi' })).toBe('p_michael');
  });

  it('company or location picks one of two people with the same name', async () => {
    expect(await matchedId({ firstName: 'John', lastName: 'Smith', companyName: 'ACME' })).toBe('p_smith_acme');
    expect(await matchedId({ firstName: 'John', lastName: 'Smith', companyName: 'Globex Corporation' })).toBe('p_smith_globex');
    expect(await matchedId({ firstName: 'John', lastName: 'Smith', location: 'Boston, Massachusetts' })).toBe('p_smith_globex');
  });
});

describe('findMatch: must not match', () => {
  it('a different given name one letter away is another person', async () => {
    expect(await matchedId({ firstName: 'John', lastName: 'Whitfield' })).toBeNull();
    expect(await matchedId({ firstName: 'Jane', lastName: 'Okonkwo' })).toBeNull();
  });

  it('a different last name, or an unknown email alone', async () => {
    expect(await matchedId({ firstName: 'Robert', lastName: 'Johnson' })).toBeNull();
    expect(await findMatch(db, criteria({ email: 'nobody@example.com' }))).toEqual({ person: null, reason: 'none' });
  });

  it('the right name at another company is not taken', async () => {
    expect(await matchedId({ firstName: 'Robert', lastName: 'Jones', companyName: 'Initech' })).toBeNull();
  });
});

describe('findMatch: ambiguous', () => {
  it('two people who fit equally well: no guess', async () => {
    expect(await findMatch(db, criteria({ firstName: 'John', lastName: 'Smith' }))).toEqual({ person: null, reason: 'ambiguous' });
    expect(await findMatch(db, criteria({ firstName: 'Jon', lastName: 'Smith' }))).toEqual({ person: null, reason: 'ambiguous' });
  });

  it('two double-barrelled namesakes who share the part asked for: no guess, the exact name still found', async () => {
    expect(await findMatch(db, criteria({ firstName: 'Mark', lastName: 'Lee' }))).toEqual({ person: null, reason: 'ambiguous' });
    expect(await matchedId({ firstName: 'Mark', lastName: 'Lee-Smith' })).toBe('p_mark_smith');
    expect(await matchedId({ firstName: 'Mark', lastName: 'Smith' })).toBe('p_mark_smith');
  });
});
