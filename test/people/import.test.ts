import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { DEMO_PEOPLE_FILE } from '../../src/people/demo/seed.ts';
import { importPeople } from '../../src/people/import.ts';
import { loadModel } from '../../src/personality/text/model.ts';
import { estimateVersion } from '../../src/personality/shrink.ts';
import { TRAITS } from '../../src/personality/types.ts';
import { countPeople, findPersonByEmail, findPersonByLinkedinUrl } from '../../src/people/repository.ts';
import { recomputeProfiles } from '../../src/people/recompute.ts';
import { AppError } from '../../src/shared/errors.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

// Long, real texts from the demo file give real personalities; the rows themselves are new.
const demoTexts = readFileSync(DEMO_PEOPLE_FILE, 'utf8')
  .trim()
  .split('\n')
  .map((line) => (JSON.parse(line) as { texts: { type: string; text: string }[] }).texts)
  .filter((texts) => texts.reduce((n, t) => n + t.text.split(/\s+/).length, 0) > 100);
const texts = (i: number) => demoTexts[i % demoTexts.length] ?? [];

let dir: string;
let testDb: TestDb;
let db: Db;
let deps: { db: Db; model: ReturnType<typeof loadModel> };
const model = loadModel();
/** What a profile made now is stored under: the model's version and the shrink. */
const current = estimateVersion(model.version);
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'rapport-import-'));
  testDb = await createTestDb();
  db = testDb.db;
  deps = { db, model };
});
afterAll(async () => {
  await testDb.close();
  rmSync(dir, { recursive: true, force: true });
});

function write(name: string, content: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
}

const jsonl = [
  JSON.stringify({ first_name: 'Nora', last_name: 'Vance', email: 'Nora.Vance@Example.com', linkedin_url: 'https://www.linkedin.com/in/nora-vance-demo', company_name: 'Pinecrest Works', texts: texts(0) }),
  JSON.stringify({ first_name: 'Otto', last_name: 'Reyes', linkedin_url: 'http://uk.linkedin.com/in/Otto-Reyes-Demo/?trk=abc', texts: texts(1) }),
  '{"first_name": "Broken", "email": "broken@example.com"', // line 3: invalid JSON
  JSON.stringify({ first_name: 'Nobody', company_name: 'No Identifier Inc' }), // line 4
  '',
  JSON.stringify({ first_name: 'Bad', email: 'not-an-address' }), // line 6
  JSON.stringify({ email: 'kind@example.com', texts: [{ type: 'tweet', text: 'hello' }] }), // line 7
  JSON.stringify({ email: 'long@example.com', first_name: 'x'.repeat(500) }), // line 8
  JSON.stringify({ first_name: 'Tess', email: 'tess@example.org', texts: [{ type: 'email', text: 'Thanks, see you soon.' }] }),
  JSON.stringify({ first_name: 'Uma', email: 'uma@example.org', texts: [...texts(2), { type: 'resume', text: 'Skills: planning, budgets.' }] }),
  JSON.stringify({ email: 'clash@example.org', linkedin_url: 'linkedin.com/in/otto-reyes-demo' }), // line 11: Otto's URL again: same person as line 2
].join('\n');

describe('importing people', () => {
  it('imports JSON Lines, reports bad rows by line, and is a no-op the second time', async () => {
    const file = write('people.jsonl', `${jsonl}\n`);
    const events: Record<string, unknown>[] = [];
    const summary = await importPeople(deps, file, { progress: (e) => events.push(e) });
    expect(summary).toMatchObject({ format: 'jsonl', read: 10, inserted: 4, updated: 0, unchanged: 0, skipped: 6, withoutPersonality: 1, warnings: [] });
    expect(summary.errors.map((e) => e.line)).toEqual([3, 4, 6, 7, 8, 11]);
    expect(summary.errors[0]?.reason).toMatch(/invalid JSON/);
    expect(summary.errors[1]?.reason).toMatch(/no identifier/);
    expect(summary.errors[2]?.reason).toMatch(/bad email/);
    expect(summary.errors[3]?.reason).toMatch(/unknown type "tweet"/);
    expect(summary.errors[4]?.reason).toMatch(/first_name is longer than 200/);
    expect(summary.errors[5]?.reason).toBe('same person as line 2 (linkedin_url "linkedin.com/in/otto-reyes-demo")');
    expect(events.at(-1)).toMatchObject({ phase: 'import', read: 10, inserted: 4, skipped: 6 });
    expect(await countPeople(db)).toBe(4);

    const again = await importPeople(deps, file);
    expect(again).toMatchObject({ read: 10, inserted: 0, updated: 0, unchanged: 4, skipped: 6, withoutPersonality: 1 });

    // From another file the same row updates Otto: a new email, the URL he is known by.
    const later = await importPeople(deps, write('otto.jsonl', `${jsonl.split('\n')[10] ?? ''}\n`));
    expect(later).toMatchObject({ read: 1, updated: 1, skipped: 0 });
  });

  it('finds imported people by every spelling, with their personality or none', async () => {
    const nora = await findPersonByEmail(db, ' nora.vance@EXAMPLE.com');
    expect(nora).toMatchObject({ firstName: 'Nora', companyName: 'Pinecrest Works', source: 'import', modelVersion: current });
    expect(nora?.estimate?.modelVersion).toBe(model.version);
    expect(nora?.estimate?.wordCount).toBeGreaterThan(100);
    for (const url of ['https://www.linkedin.com/in/nora-vance-demo', 'linkedin.com/in/NORA-VANCE-DEMO/', 'https://de.linkedin.com/in/nora%2Dvance-demo?x=1#top']) {
      expect((await findPersonByLinkedinUrl(db, url))?.id).toBe(nora?.id);
    }
    const otto = await findPersonByLinkedinUrl(db, 'https://www.linkedin.com/in/otto-reyes-demo');
    expect(otto).toMatchObject({ firstName: 'Otto', emailNormalized: 'clash@example.org' });
    expect(otto?.estimate).not.toBeNull();

    const tess = await findPersonByEmail(db, 'tess@example.org');
    expect(tess?.texts).toEqual([{ type: 'email', text: 'Thanks, see you soon.' }]);
    expect(tess?.estimate).toBeNull();
    expect(tess?.modelVersion).toBe(current);
    expect((await findPersonByEmail(db, 'uma@example.org'))?.texts.at(-1)?.type).toBe('resume');
  });

  it('imports CSV with text_* columns, quoted multi-line fields and short rows', async () => {
    const bio = (texts(3).find((t) => t.type !== 'email') ?? texts(3)[0])?.text ?? '';
    const csv = [
      'First_Name,last_name,email,linkedin_url,company_name,text_email,text_bio,phone',
      `Vic,Moreau,vic@example.com,,Harbor Lane,"Hello team,\nsee you at ""the"" review.","${bio.replace(/"/g, '""')}",555`,
      'Wes,Hale,,https://www.linkedin.com/in/wes-hale-demo,Harbor Lane',
      'Bad,Mail,wes@@example.com,,',
      'Nora,Vance,nora.vance@example.com,https://www.linkedin.com/in/nora-vance-demo,Pinecrest Works Ltd',
      'Otto,Clash,tess@example.org,https://www.linkedin.com/in/otto-reyes-demo,',
      'Too,Many,many@example.com,,,,,,extra',
    ].join('\r\n');
    const file = write('people.csv', csv);
    const summary = await importPeople(deps, file);
    expect(summary).toMatchObject({ format: 'csv', read: 6, inserted: 2, updated: 1, unchanged: 0, skipped: 3, ignoredColumns: ['phone'] });
    expect(summary.errors).toEqual([
      { line: 5, reason: expect.stringMatching(/bad email/) },
      { line: 7, reason: expect.stringMatching(/email matches one stored person and linkedin_url another/) },
      { line: 8, reason: 'expected 8 columns, found 9 (a value that contains a comma must be in double quotes)' },
    ]);
    const vic = await findPersonByEmail(db, 'VIC@example.com');
    expect(vic?.texts.map((t) => t.type)).toEqual(['email', 'bio']);
    expect(vic?.texts[0]?.text).toBe('Hello team,\nsee you at "the" review.');
    expect(vic?.estimate).not.toBeNull();
    expect((await findPersonByLinkedinUrl(db, 'linkedin.com/in/wes-hale-demo'))?.estimate).toBeNull();
    // An update keeps what the row leaves out: Nora's texts and personality stay.
    const nora = await findPersonByEmail(db, 'nora.vance@example.com');
    expect(nora?.companyName).toBe('Pinecrest Works Ltd');
    expect(nora?.estimate).not.toBeNull();
    expect((await importPeople(deps, file)).unchanged).toBe(3);
  });

  it('reports a refused short CSV row as a column-count problem, and imports one that reads well', async () => {
    const csv = ['first_name,last_name,email,linkedin_url,company_name', 'Too,Few,columns', 'Ann,Lee,ann.lee@example.com', 'Tim,Cole,tim.cole@example.com,,Cole & Co'].join('\n');
    const summary = await importPeople(deps, write('short-rows.csv', csv));
    expect(summary).toMatchObject({ read: 3, inserted: 2, skipped: 1 });
    expect(summary.errors).toEqual([{ line: 2, reason: 'expected 5 columns, found 3, so values may be under the wrong columns (bad email "columns")' }]);
    expect((await findPersonByEmail(db, 'ann.lee@example.com'))?.lastName).toBe('Lee');
  });

  it('says a CSV file must be comma-separated when its header uses semicolons or tabs', async () => {
    await expect(importPeople(deps, write('semicolons.csv', 'email;first_name\nsemi@example.com;Sam\n'))).rejects.toThrow(
      'The CSV header has neither an email nor a linkedin_url column, and it contains semicolons: the file must be comma-separated (a comma between columns).',
    );
    await expect(importPeople(deps, write('tabs.csv', 'email\tfirst_name\ntab@example.com\tTia\n'))).rejects.toThrow(/contains tabs: the file must be comma-separated/);
    await expect(importPeople(deps, write('no-id.csv', 'first_name,last_name\nNo,Id\n'))).rejects.toThrow(/neither an email nor a linkedin_url column \(the first line must name the columns\)/);
  });

  it('refuses an unreadable file, an unknown format and an unknown text column before importing', async () => {
    await expect(importPeople(deps, path.join(dir, 'missing.jsonl'))).rejects.toMatchObject({ code: 'not_found' });
    await expect(importPeople(deps, write('people.txt', '{}'))).rejects.toThrow(/--format/);
    await expect(importPeople(deps, write('bad.csv', 'email,text_tweet\na@example.com,hi\n'))).rejects.toThrow(AppError);
    const asJson = await importPeople(deps, write('people.data', JSON.stringify({ email: 'fmt@example.com' })), { format: 'jsonl' });
    expect(asJson.inserted).toBe(1);
  });

  it('recomputes profiles made by another model version, or all of them', async () => {
    const nora = await findPersonByEmail(db, 'nora.vance@example.com');
    await db.query('UPDATE people SET model_version = \'old-model\', estimate = NULL WHERE id = $1', [nora?.id]);
    const summary = await recomputeProfiles(deps);
    expect(summary).toMatchObject({ modelVersion: current, recomputed: 1, withPersonality: 1 });
    const after = await findPersonByEmail(db, 'nora.vance@example.com');
    expect(after?.modelVersion).toBe(current);
    expect(after?.estimate?.scores).toEqual(nora?.estimate?.scores);
    expect(await recomputeProfiles(deps)).toMatchObject({ recomputed: 0, upToDate: await countPeople(db) });
    expect(await recomputeProfiles(deps, { all: true })).toMatchObject({ recomputed: await countPeople(db), upToDate: 0 });
  });

  it('finds a profile made by the same model under another shrink out of date, and stores it shrunk', async () => {
    expect(current).not.toBe(model.version);
    const nora = await findPersonByEmail(db, 'nora.vance@example.com');
    const kept = nora?.estimate?.evidenceWeight ?? 0;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(1);
    // As a data directory from before the shrink holds it: the bare model version, the reading unshrunk.
    const scores = nora?.estimate?.scores;
    if (scores === undefined) throw new Error('the imported person has no estimate');
    const unshrunk = Object.fromEntries(TRAITS.map((trait) => [trait, scores[trait] / kept]));
    await db.query('UPDATE people SET model_version = $2, estimate = jsonb_set(estimate, \'{scores}\', $3::jsonb) WHERE id = $1', [nora?.id, model.version, JSON.stringify(unshrunk)]);
    expect(await recomputeProfiles(deps)).toMatchObject({ modelVersion: current, recomputed: 1 });
    const after = await findPersonByEmail(db, 'nora.vance@example.com');
    expect(after?.modelVersion).toBe(current);
    expect(after?.estimate?.scores).toEqual(scores);
    expect(await recomputeProfiles(deps)).toMatchObject({ recomputed: 0 });
  });
});

describe('what a new operator trips over', () => {
  const bioText = () => texts(4).map((t) => t.text).join(' ');

  it('matches header names whatever their case and separators, and still lists unknown columns', async () => {
    const csv = ['First Name,Last Name,Email,Text Bio,LinkedIn-URL,company.name,JOB_TITLE,Phone', `Hal,Pike,hal.pike@example.com,"${bioText().replace(/"/g, '""')}",linkedin.com/in/hal-pike-demo,Pike & Co,Chief Cook,555`].join('\n');
    const summary = await importPeople(deps, write('spreadsheet.csv', csv));
    expect(summary).toMatchObject({ read: 1, inserted: 1, skipped: 0, withoutPersonality: 0, ignoredColumns: ['Phone'] });
    const hal = await findPersonByEmail(db, 'hal.pike@example.com');
    expect(hal).toMatchObject({ firstName: 'Hal', lastName: 'Pike', companyName: 'Pike & Co', title: 'Chief Cook', linkedinKey: 'in/hal-pike-demo' });
    expect(hal?.texts.map((t) => t.type)).toEqual(['bio']);
    expect(hal?.estimate).not.toBeNull();

    const spellings = await importPeople(deps, write('spellings.csv', 'firstName, last-name ,E-Mail Address,text.email,Favourite Color\nIda,Lund,ida.lund@example.com,Hi all,blue\n'));
    expect(spellings).toMatchObject({ inserted: 1, ignoredColumns: ['Favourite Color'] });
    expect(await findPersonByEmail(db, 'ida.lund@example.com')).toMatchObject({ firstName: 'Ida', lastName: 'Lund', texts: [{ type: 'email', text: 'Hi all' }] });

    // An export with both a column and its alias: the column is read, the alias left unread.
    const both = await importPeople(deps, write('both.csv', 'Email,Email Address,Company Name,Company\nbo.both@example.com,other@example.com,Both Ltd,Both Group\n'));
    expect(both).toMatchObject({ inserted: 1, ignoredColumns: ['Email Address', 'Company'] });
    expect(await findPersonByEmail(db, 'bo.both@example.com')).toMatchObject({ companyName: 'Both Ltd' });

    await expect(importPeople(deps, write('twice.csv', 'Email,FIRST_NAME,first-name\na@example.com,A,B\n'))).rejects.toThrow(
      'Column first_name appears twice in the CSV header ("FIRST_NAME" and "first-name").',
    );
    await expect(importPeople(deps, write('text-tweet.csv', 'Email,Text Tweet\na@example.com,hi\n'))).rejects.toThrow(/^Unknown text column Text Tweet: text columns are text_email, /);
  });

  it('suggests the column a near-miss header was meant to be, and only where one stands out', async () => {
    // Bio lacks its text_ prefix, Tittle is misspelt; Mail is near email, but email is read already;
    // Phone and Name (first_name? last_name? company_name?) have no one likely meaning.
    const csv = 'Email,Bio,Tittle,Mail,Phone,Name,Company\nhint.hanna@example.com,I write a lot,Chef,other@example.com,555,Hanna,Hint Ltd\n';
    const summary = await importPeople(deps, write('near-miss.csv', csv));
    expect(summary).toMatchObject({ inserted: 1, ignoredColumns: ['Bio', 'Tittle', 'Mail', 'Phone', 'Name'] });
    expect(summary.columnHints).toEqual({ Bio: 'text_bio', Tittle: 'title' });
    expect(await findPersonByEmail(db, 'hint.hanna@example.com')).toMatchObject({ companyName: 'Hint Ltd', title: null, texts: [] });
    // JSON Lines names its fields exactly: nothing to hint.
    expect((await importPeople(deps, write('no-hints.jsonl', JSON.stringify({ email: 'hint.jo@example.com' })))).columnHints).toEqual({});
  });

  it('refuses a file that is not UTF-8 text before importing any of it, naming the line', async () => {
    const before = await countPeople(db);
    const latin1 = write('latin1.csv', '');
    writeFileSync(latin1, Buffer.from('email,first_name,last_name\nann.ok@example.com,Ann,Ok\njose@example.com,José,Müller\n', 'latin1'));
    await expect(importPeople(deps, latin1)).rejects.toThrow(`${latin1} is not UTF-8 text (line 3); save it as UTF-8 and import again.`);
    const latin1Jsonl = write('latin1.jsonl', '');
    writeFileSync(latin1Jsonl, Buffer.from(`${JSON.stringify({ email: 'jo@example.com' })}\n${JSON.stringify({ email: 'jose@example.com', first_name: 'José' })}\n`, 'latin1'));
    await expect(importPeople(deps, latin1Jsonl)).rejects.toThrow(`${latin1Jsonl} is not UTF-8 text (line 2)`);
    // A NUL byte is no text either (and the database could not store it).
    await expect(importPeople(deps, write('nul.csv', 'email,first_name\nn@example.com,N\u0000\n'))).rejects.toThrow(/nul\.csv is not UTF-8 text \(line 2\)/);
    // A file that ends in the middle of a character.
    const cut = write('cut.csv', '');
    writeFileSync(cut, Buffer.concat([Buffer.from('email,first_name\nc@example.com,Zo'), Buffer.from('é', 'utf8').subarray(0, 1)]));
    await expect(importPeople(deps, cut)).rejects.toThrow(/cut\.csv is not UTF-8 text \(line 2\)/);

    const csv = 'email,first_name\nutf16@example.com,Ulla\n';
    const utf16le = write('utf16le.csv', '');
    writeFileSync(utf16le, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(csv, 'utf16le')]));
    await expect(importPeople(deps, utf16le)).rejects.toThrow(`${utf16le} is UTF-16 text, not UTF-8; save it as UTF-8 and import again.`);
    const utf16be = write('utf16be.csv', '');
    writeFileSync(utf16be, Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(csv, 'utf16le').swap16()]));
    await expect(importPeople(deps, utf16be)).rejects.toThrow(/is UTF-16 text/);
    const noBom = write('utf16-no-bom.csv', '');
    writeFileSync(noBom, Buffer.from(csv, 'utf16le'));
    await expect(importPeople(deps, noBom)).rejects.toThrow(/is UTF-16 text/);
    expect(await countPeople(db)).toBe(before);
  });

  it('finds the bad line far into a file, across read chunks, and reads UTF-8 that chunks split', async () => {
    // 64 KiB read chunks: the two-byte "é" of row after row lands across several chunk boundaries.
    const rows = Array.from({ length: 3000 }, (_, i) => `chunk${i}@example.com,Zoé${i},Müller`);
    const good = write('accents.csv', ['email,first_name,last_name', ...rows].join('\n'));
    const summary = await importPeople(deps, good);
    expect(summary).toMatchObject({ read: 3000, inserted: 3000, skipped: 0 });
    expect(await findPersonByEmail(db, 'chunk2999@example.com')).toMatchObject({ firstName: 'Zoé2999', lastName: 'Müller' });

    const bad = write('late-latin1.csv', '');
    writeFileSync(bad, Buffer.concat([Buffer.from(['email,first_name,last_name', ...rows.slice(0, 2500), ''].join('\n')), Buffer.from('late@example.com,José,Müller\n', 'latin1')]));
    await expect(importPeople(deps, bad)).rejects.toThrow(/late-latin1\.csv is not UTF-8 text \(line 2502\)/);

    // A character begun at the very end of one 64 KiB chunk and broken at the start of the next.
    const header = Buffer.from('email,first_name\n');
    const filler = Buffer.from(`a@example.com,${'x'.repeat(65536 - header.length - 'a@example.com,'.length - 1)}`);
    const split = write('split.csv', '');
    writeFileSync(split, Buffer.concat([header, filler, Buffer.from([0xc3, 0x41]), Buffer.from('\nb@example.com,B\n')]));
    expect(header.length + filler.length + 1).toBe(65536);
    await expect(importPeople(deps, split)).rejects.toThrow(/split\.csv is not UTF-8 text \(line 2\)/);
    // The same character whole, and a bad byte on the next line: only that line is named.
    const later = write('split-later.csv', '');
    writeFileSync(later, Buffer.concat([header, filler, Buffer.from([0xc3, 0xa9]), Buffer.from('\nb@example.com,B'), Buffer.from([0xe9]), Buffer.from('\n')]));
    await expect(importPeople(deps, later)).rejects.toThrow(/split-later\.csv is not UTF-8 text \(line 3\)/);
  });

  it('skips a row naming the same person as an earlier row, so importing the file again changes nothing', async () => {
    const csv = [
      'email,first_name,linkedin_url',
      'same@example.com,First,',
      'SAME@example.com,Second,',
      'other@example.com,Other,https://www.linkedin.com/in/other-demo',
      'third@example.com,Third,linkedin.com/in/OTHER-demo/',
    ].join('\n');
    const file = write('twice.csv', csv);
    const summary = await importPeople(deps, file);
    expect(summary).toMatchObject({ read: 4, inserted: 2, updated: 0, skipped: 2 });
    expect(summary.errors).toEqual([
      { line: 3, reason: 'same person as line 2 (email "SAME@example.com")' },
      { line: 5, reason: 'same person as line 4 (linkedin_url "linkedin.com/in/OTHER-demo/")' },
    ]);
    expect(await findPersonByEmail(db, 'same@example.com')).toMatchObject({ firstName: 'First' });
    expect(await findPersonByEmail(db, 'third@example.com')).toBeNull();
    expect(await importPeople(deps, file)).toMatchObject({ read: 4, inserted: 0, updated: 0, unchanged: 2, skipped: 2 });
  });

  it('skips a row holding a NUL character (which the database cannot store) instead of failing the import', async () => {
    const rows = [
      { email: 'nul-text@example.org', texts: [{ type: 'bio', text: 'A bio with a \u0000 in it.' }] },
      { email: 'nul-name@example.org', first_name: 'Ada\u0000' },
      { email: 'fine-after-nul@example.org', first_name: 'Fine' },
    ];
    const summary = await importPeople(deps, write('nul.jsonl', rows.map((r) => JSON.stringify(r)).join('\n')));
    expect(summary).toMatchObject({ read: 3, inserted: 1, skipped: 2 });
    expect(summary.errors.map((e) => e.reason)).toEqual([
      'texts[0] holds a NUL character, which the database cannot store',
      'first_name holds a NUL character, which the database cannot store',
    ]);
  });

  it('keeps the good rows around one holding half a surrogate pair, which the database cannot store (issue 25)', async () => {
    // As a JSON file spells it: `\ud800` with no low half after it. Before, the batch's INSERT
    // failed ("invalid input syntax for type json") and the import stopped with no line number.
    const file = write(
      'surrogate.jsonl',
      [
        JSON.stringify({ email: 'before-surrogate@example.org', first_name: 'Before', texts: texts(3) }),
        '{"email": "surrogate@example.org", "texts": [{"type": "bio", "text": "A bio \\ud800 broken"}]}',
        '{"email": "surrogate-name@example.org", "last_name": "Lone\\udc00"}',
        JSON.stringify({ email: 'after-surrogate@example.org', first_name: 'After', texts: texts(4) }),
      ].join('\n'),
    );
    const summary = await importPeople(deps, file);
    expect(summary).toMatchObject({ read: 4, inserted: 2, skipped: 2 });
    expect(summary.errors).toEqual([
      { line: 2, reason: 'texts[0] holds half of a UTF-16 surrogate pair (a broken character), which the database cannot store' },
      { line: 3, reason: 'last_name holds half of a UTF-16 surrogate pair (a broken character), which the database cannot store' },
    ]);
    expect(await findPersonByEmail(db, 'before-surrogate@example.org')).toMatchObject({ firstName: 'Before' });
    expect(await findPersonByEmail(db, 'after-surrogate@example.org')).toMatchObject({ firstName: 'After' });
  });

  it('a row the database refuses for a reason no check foresaw is skipped with it; the rest of its batch is stored', async () => {
    // A database that refuses one value (as PostgreSQL does text it cannot store: SQLSTATE 22P05).
    const refusing: Db = Object.create(db) as Db;
    const refuse = <T>(sql: string, params: readonly unknown[] | undefined, run: () => Promise<T>): Promise<T> => {
      const refusal = Object.assign(new Error('unsupported Unicode escape sequence "x"'), { code: '22P05' });
      if (JSON.stringify(params ?? []).includes('refused-by-db')) return Promise.reject(refusal);
      return run();
    };
    refusing.transaction = (fn) =>
      db.transaction((tx) => fn({ query: (sql, params) => refuse(sql, params, () => tx.query(sql, params)), run: (st, params) => refuse(st.sql, params, () => tx.run(st, params)) }));
    const file = write(
      'refused.jsonl',
      ['one', 'refused-by-db', 'three'].map((name) => JSON.stringify({ email: `${name}@example.org`, first_name: name, texts: texts(5) })).join('\n'),
    );
    const summary = await importPeople({ db: refusing, model }, file);
    expect(summary).toMatchObject({ read: 3, inserted: 2, skipped: 1 });
    expect(summary.errors).toEqual([{ line: 2, reason: 'the database refused the row (unsupported Unicode escape sequence "…")' }]);
    expect(await findPersonByEmail(db, 'three@example.org')).toMatchObject({ firstName: 'three' });
    expect(await findPersonByEmail(db, 'refused-by-db@example.org')).toBeNull();
  });

  it('refuses an empty file and warns about a CSV file with a header but no rows', async () => {
    const empty = write('empty.csv', '');
    await expect(importPeople(deps, empty)).rejects.toThrow(`${empty} is empty: there are no people in it to import.`);
    await expect(importPeople(deps, write('blank.jsonl', '\uFEFF\n  \r\n'))).rejects.toThrow(/blank\.jsonl is empty/);
    const headerOnly = write('header-only.csv', 'email,first_name\r\n');
    const summary = await importPeople(deps, headerOnly);
    expect(summary).toMatchObject({ read: 0, inserted: 0, skipped: 0, warnings: [`${headerOnly} has no people in it: there is a header line but no rows under it.`] });
  });
});
