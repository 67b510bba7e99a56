/**
 * How individual and how consistent the advice is:
 *
 *   npm run advice-overlap
 *
 * - Same-type overlap (issue 12): over same-type pairs of the demo people and of 200 generated
 *   people, the share of advice sentences the two have in common. Pairs whose five trait scores
 *   all lie within 0.1 of each other count as the same person and are left out. Target: a mean
 *   share under 50 %.
 * - Variety (issue 24): over the demo people, the share of sentence slots that are distinct
 *   (target 75 % or more), the sentence in most profiles (target: 4 or fewer), and pairs of people
 *   of different types given the same sample emails (target: none).
 * - The claims check (issue 24, src/content/profile-check.ts): every type × strength × evidence
 *   level × role family × what a test measured, each as a profile page and a C2 page: pairs of
 *   opposite claims, claims the reading does not make, near-duplicates in one list (target: none).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { API_SECTIONS, generatedPeople, measureOverlap, PAGE_SECTIONS, type OverlapPerson, type OverlapReport } from '../src/content/advice-overlap.ts';
import { checkGeneratedProfiles } from '../src/content/profile-check.ts';
import { measureVariety } from '../src/content/variety.ts';
import { analyzeTexts } from '../src/people/analyze.ts';
import { loadModel } from '../src/personality/text/model.ts';
import type { TextSample } from '../src/people/person.ts';
import { loadContent } from '../src/content/load-content.ts';

const shipped = loadContent();

const model = loadModel();
const DEMO = fileURLToPath(new URL('../src/people/demo/people.jsonl', import.meta.url));

interface DemoLine {
  first_name?: string;
  title?: string | null;
  texts?: TextSample[];
}

function demoPeople(): OverlapPerson[] {
  const people: OverlapPerson[] = [];
  for (const line of readFileSync(DEMO, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const row = JSON.parse(line) as DemoLine;
    const { estimate } = analyzeTexts(model, row.texts ?? []);
    if (estimate) people.push({ label: row.first_name ?? '?', estimate, title: row.title ?? null });
  }
  return people;
}

const percent = (share: number): string => `${(100 * share).toFixed(1)} %`;

function print(name: string, report: OverlapReport): void {
  console.log(
    `${name.padEnd(34)} people ${String(report.people).padStart(3)}  same-type pairs ${String(report.pairs).padStart(4)}` +
      `  shared: mean ${percent(report.mean)}, median ${percent(report.median)}, p90 ${percent(report.p90)}` +
      `  pairs at 50 %+ ${percent(report.atOrAboveHalf)}  distinct ${report.distinct}/${report.total}` +
      (report.worst ? `  most alike: ${report.worst.a} & ${report.worst.b} ${percent(report.worst.share)}` : ''),
  );
}

const demo = demoPeople();
const generated = generatedPeople(200);
console.log('Advice sentences two people of the same DISC type share (target: mean under 50 %)');
print('demo people, API sentences', measureOverlap(shipped.phrases, demo, API_SECTIONS));
print('demo people, page sentences', measureOverlap(shipped.phrases, demo, PAGE_SECTIONS));
print('200 generated, API sentences', measureOverlap(shipped.phrases, generated, API_SECTIONS));
print('200 generated, page sentences', measureOverlap(shipped.phrases, generated, PAGE_SECTIONS));

const variety = measureVariety(shipped, demo);
console.log('\nVariety over the demo people (targets: 75 % of sentence slots distinct or more, no sentence in more than 4 profiles, no two types with the same emails)');
console.log(
  `  ${variety.people} people: ${variety.distinct} distinct sentences of ${variety.slots} slots (${percent(variety.distinctShare)}); ` +
    `most shared sentence in ${variety.mostShared?.profiles ?? 0} profiles${variety.mostShared ? ` ("${variety.mostShared.sentence}")` : ''}`,
);
const alike = variety.mostAlikeAcrossTypes;
if (alike) console.log(`  most alike of different types: ${alike.a} and ${alike.b} share ${alike.shared} of ${alike.of} sentences (27 of 50 before issue 24)`);
console.log(`  ${variety.evidenceNotes} profiles open with the note that the evidence is thin (the same note for all, not counted as a slot)`);
console.log(`  sample emails: ${variety.emailSets} distinct sets for ${variety.people} people; pairs of different types with the same set: ${variety.sameEmails.length}`);

const check = checkGeneratedProfiles(shipped);
console.log('\nClaims check (target: nothing found)');
console.log(
  `  ${check.profiles} generated readings, ${2 * check.profiles} pages (profile and C2): opposite claims ${check.counts.opposed}, ` +
    `sides worded against the reading or against each other ${check.counts.worded}, sides the reading does not claim ${check.counts.unclaimed}, ` +
    `near-duplicates in one list ${check.counts['near-duplicate']}`,
);
for (const finding of check.findings.slice(0, 10)) console.log(`  ${finding.kind}: ${finding.profile}: ${finding.detail}`);
