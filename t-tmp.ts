import { readFileSync } from 'node:fs';
import { analyzeTexts } from './src/people/analyze.ts';
import { measureOverlap, adviceSentences } from './src/content/advice-overlap.ts';
import { personalityView } from './src/personality/views.ts';
const people = [];
for (const line of readFileSync('src/people/demo/people.jsonl','utf8').split('\n')) {
  if (!line.trim()) continue;
  const r = JSON.parse(line);
  const { estimate } = analyzeTexts(r.texts ?? []);
  if (estimate) people.push({ label: r.first_name, estimate, title: r.title });
}
for (let i=0;i<people.length;i++) for (let j=i+1;j<people.length;j++) {
  const a=people[i], b=people[j];
  const va=personalityView(a.estimate), vb=personalityView(b.estimate);
  if (va.disc_type!==vb.disc_type) continue;
  const sa=new Set(adviceSentences(a)), sb=new Set(adviceSentences(b));
  let n=0; for (const s of sa) if (sb.has(s)) n++;
  console.log(a.label, b.label, va.disc_type, n, '/', Math.min(sa.size, sb.size), JSON.stringify(a.estimate.scores), JSON.stringify(b.estimate.scores));
}
