import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEMO_PEOPLE_FILE, seedDemoData } from '../../src/people/demo/seed.ts';
import { personalityView } from '../../src/personality/views.ts';
import { countPeople, findPersonByEmail, findPersonByLinkedinUrl } from '../../src/people/repository.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { useTestDb } from '../helpers/db.ts';
import { loadModel } from '../../src/personality/text/model.ts';

interface DemoRow {
  first_name: string;
  email: string;
  linkedin_url: string;
  company_name: string;
  texts: { type: string; text: string }[];
}
const rows = readFileSync(DEMO_PEOPLE_FILE, 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as DemoRow);
const words = (row: DemoRow) => row.texts.reduce((n, t) => n + t.text.split(/\s+/).filter(Boolean).length, 0);

const testDb = useTestDb();

describe('demo people', () => {
  it('are clearly fictional, with 150 to 400 words each but one', () => {
    expect(rows.length).toBeGreaterThanOrEqual(12);
    expect(rows.length).toBeLessThanOrEqual(16);
    for (const row of rows) {
      expect(row.email).toMatch(/@example\.(com|org)$/);
      expect(row.linkedin_url).toMatch(/^https:\/\/www\.linkedin\.com\/in\/[a-z-]+-demo$/);
    }
    const short = rows.filter((row) => words(row) < 150);
    expect(short.map((r) => r.first_name)).toEqual(['Cole']);
    for (const row of rows) expect(words(row)).toBeLessThanOrEqual(400);
  });

  it('load once into an empty database, each with a personality but the one with too little text', async () => {
    const ctx = { db: testDb.db, logger: createLogger('silent'), model: loadModel() };
    const summary = await seedDemoData(ctx);
    expect(summary).toMatchObject({ read: rows.length, inserted: rows.length, skipped: 0, withoutPersonality: 1 });
    expect(await seedDemoData(ctx)).toBeNull();
    expect(await countPeople(testDb.db)).toBe(rows.length);

    const styles = new Set<string>();
    for (const row of rows) {
      const person = await findPersonByEmail(testDb.db, row.email);
      if (person?.estimate) styles.add(personalityView(person.estimate).discType.charAt(0).toUpperCase());
      expect(person?.source).toBe('demo');
      expect((await findPersonByLinkedinUrl(testDb.db, row.linkedin_url))?.id).toBe(person?.id);
      if (row.first_name === 'Cole') expect(person?.estimate).toBeNull();
      else expect(person?.estimate?.wordCount).toBeGreaterThan(100);
    }
    // Written to spread around the circle; with the current model they reach all four styles.
    // A retrained model may move them: at least three styles must stay represented.
    expect(styles.size).toBeGreaterThanOrEqual(3);
  });
});
