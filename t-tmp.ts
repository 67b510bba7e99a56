import { readFileSync } from 'node:fs';
import { analyzeTexts } from './src/people/analyze.ts';
import { personalityView } from './src/personality/views.ts';
import { traitLevels, roleFamily } from './src/content/individual.ts';
for (const line of readFileSync('src/people/demo/people.jsonl','utf8').split('\n')) {
  if (!line.trim()) continue;
  const r = JSON.parse(line);
  const { estimate } = analyzeTexts(r.texts ?? []);
  if (!estimate) continue;
  const v = personalityView(estimate);
  console.log(r.first_name.padEnd(10), v.disc_type.padEnd(3), v.angle.toFixed(1).padStart(6), String(v.disc_intensity).padStart(3), 'conf', v.confidence, 'words', estimate.wordCount, JSON.stringify(traitLevels(estimate.scores)), roleFamily(r.title), r.title);
}
