import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ImportAnalysis } from '../../src/people/analysis-threads.ts';
import { readPerson } from '../../src/people/analyze.ts';
import { DEMO_PEOPLE_FILE } from '../../src/people/demo/seed.ts';
import type { PersonInput, TextSample } from '../../src/people/person.ts';
import { validatePersonRecord } from '../../src/people/validate.ts';
import { DEFAULT_MODEL_PATH, loadModel } from '../../src/personality/text/model.ts';
import { useTestDb } from '../helpers/db.ts';

const model = loadModel();
const demo = readFileSync(DEMO_PEOPLE_FILE, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { texts?: TextSample[] }).texts ?? []);

/** `count` people with the demo people's texts, new to the database. */
function people(batch: string, count: number): PersonInput[] {
  return Array.from({ length: count }, (_, i) => {
    const valid = validatePersonRecord({ email: `${batch}.${i}@example.com`, first_name: 'Reader', last_name: `${batch}${i}`, texts: demo[i % demo.length] });
    if (!valid.ok) throw new Error(valid.reason);
    return valid.input;
  });
}

describe("an import's analysis threads and the import's own thread", () => {
  const testDb = useTestDb();

  it('the import reads the people no thread has taken yet instead of waiting, and the readings are the same wherever they are made', { timeout: 60_000 }, async () => {
    const analysis = new ImportAnalysis(model, DEFAULT_MODEL_PATH, 1);
    try {
      // The thread is still starting (a new isolate, the model's file) when the write asks for the
      // first batch: the import's thread reads it rather than wait.
      const first = people('first', 40);
      const firstRead = await (await analysis.readAhead(testDb.db, first)).collect();
      expect(analysis.readHere).toBeGreaterThan(0);
      for (const input of first) expect(firstRead.get(input.texts)).toEqual(readPerson(model, input.texts));

      // Handed over well before the write asks (the thread has started by now: its first task
      // ended with the collect above), the thread reads the batch alone.
      const readBefore = analysis.readHere;
      const second = people('second', 40);
      const pending = await analysis.readAhead(testDb.db, second);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const secondRead = await pending.collect();
      expect(analysis.readHere).toBe(readBefore);
      for (const input of second) expect(secondRead.get(input.texts)).toEqual(readPerson(model, input.texts));
    } finally {
      await analysis.close();
    }
  });
});
