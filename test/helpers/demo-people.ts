import { readFileSync } from 'node:fs';
import { analyzeTexts } from '../../src/people/analyze.ts';
import { DEMO_PEOPLE_FILE } from '../../src/people/demo/seed.ts';
import type { TextSample } from '../../src/people/person.ts';
import { loadModel } from '../../src/personality/text/model.ts';
import type { TraitEstimate } from '../../src/personality/types.ts';

export interface DemoPerson {
  name: string;
  estimate: TraitEstimate;
  title: string | null;
}

/** Read once per worker process: test files share it (vitest.config.ts), and the people are the same for all. */
let cached: readonly Readonly<DemoPerson>[] | undefined;

/** The demo dataset's people (`npm start` loads them) as the service reads them: estimate from their texts, and title. */
export function demoPeople(): readonly Readonly<DemoPerson>[] {
  cached ??= Object.freeze(readDemoPeople().map((person) => Object.freeze(person)));
  return cached;
}

function readDemoPeople(): DemoPerson[] {
  const model = loadModel();
  const people: DemoPerson[] = [];
  for (const line of readFileSync(DEMO_PEOPLE_FILE, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const row = JSON.parse(line) as { first_name: string; title?: string; texts?: TextSample[] };
    const { estimate } = analyzeTexts(model, row.texts ?? []);
    if (estimate) people.push({ name: row.first_name, estimate, title: row.title ?? null });
  }
  return people;
}
