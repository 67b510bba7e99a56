/**
 * In-process speed of the Connect composers: message recommendations on a 300-word draft
 * (target: under 5 ms), and the relationship, recommendations and sample emails for a pair.
 * `--before <checkout>` also times that checkout's draft checker (a worktree of the code before
 * a change) against this one, alternating, on the 300-word draft and on the labelled drafts
 * (training/drafts/), and prints the ratio.
 */
import { parseArgs } from 'node:util';
import { composeSampleEmails } from '../src/content/connect/emails.ts';
import { recommendMessage } from '../src/content/connect/messaging.ts';
import { composeConnectRecommendations } from '../src/content/connect/recommendations.ts';
import { composeRelationship } from '../src/content/connect/relationship.ts';
import type { Party } from '../src/content/party.ts';
import { generatedPeople } from '../src/content/advice-overlap.ts';
import { describePersonality } from '../src/content/describe.ts';
import { prepareProfileContent } from '../src/content/compose-profile.ts';
import { checkoutChecker, readDrafts } from '../training/drafts/score.ts';
import { summarize, timeRuns as time } from './stats.ts';
import { loadContent } from '../src/content/load-content.ts';

const shipped = loadContent();

function party(firstName: string, extraversion: number, agreeableness: number): Party {
  const scores = { extraversion, agreeableness, conscientiousness: 0.1, openness: 0.2, neuroticism: -0.1 };
  const confidence = { extraversion: 0.6, agreeableness: 0.6, conscientiousness: 0.5, openness: 0.5, neuroticism: 0.5 };
  return { firstName, estimate: { scores, confidence, source: 'prediction', modelVersion: 'bench', wordCount: 300 } };
}

const SENTENCES = [
  'I just wanted to follow up on our conversation from last week about the rollout plan for the new reporting tool.',
  'Our platform delivers huge results for teams like yours, and honestly it is best in class compared with anything else on the market today!',
  'I think we could maybe start with a small pilot in the Lisbon office, where the café team already uses a spreadsheet 📊 for everything.',
  'We must get the contracts signed ASAP because the pricing changes at the end of the quarter and finance needs the numbers before the board meeting.',
  'The pilot would cover twelve people for six weeks, with a review at the end and a short report on what worked and what did not.',
  'Let me know what you think, and whether Thursday afternoon works for a quick call with Ana and José.',
];

function draft(words: number): string {
  const out: string[] = [];
  let count = 0;
  for (let i = 0; count < words; i++) {
    const sentence = SENTENCES[i % SENTENCES.length] ?? '';
    out.push(sentence);
    count += sentence.split(/\s+/).length;
  }
  return out.join(' ');
}

/**
 * CPU time per call (user + system), which a busy shared machine does not inflate the way it
 * inflates wall time when the process is descheduled mid-call.
 */
function cpuTime(runs: number, fn: () => void): number[] {
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = process.cpuUsage();
    fn();
    const used = process.cpuUsage(start);
    samples.push((used.user + used.system) / 1000);
  }
  return samples;
}

const sender = party('Ivo', 0.7, 0.3);
const recipient = party('Cleo', -0.6, -0.4);
const text = draft(300);
const words = text.split(/\s+/).length;
const single = 'a'.repeat(20_000);

time(200, () => recommendMessage(text, sender, recipient, shipped.messaging));
const messaging = summarize(time(2000, () => recommendMessage(text, sender, recipient, shipped.messaging)));
const messagingCpu = summarize(cpuTime(2000, () => recommendMessage(text, sender, recipient, shipped.messaging)));
const oneWord = summarize(time(200, () => recommendMessage(single, sender, recipient, shipped.messaging)));
const relationship = summarize(time(2000, () => composeRelationship(sender, recipient, shipped.relationship)));
const recommendations = summarize(time(2000, () => composeConnectRecommendations(recipient, shipped)));
const emails = summarize(time(2000, () => composeSampleEmails(recipient, sender, shipped.emails)));

// Varied people, each composed once (the first profile of a person costs what the selection
// cache does not save), then the same people again (cached), as a busy service sees them. The
// library's similarity index is computed first, as the service does at start-up.
prepareProfileContent(shipped.phrases);
const varied = generatedPeople(2000, 31).map((p, i): Party => ({ firstName: `P${i}`, estimate: p.estimate, title: p.title ?? null }));
let next = 0;
const person = (): Party => varied[next++ % varied.length] ?? recipient;
const profileFirst = summarize(time(varied.length, () => { const p = person(); describePersonality(shipped.phrases, p.estimate, p.firstName, { title: p.title ?? null }); }));
const profileAgain = summarize(time(varied.length, () => { const p = person(); describePersonality(shipped.phrases, p.estimate, p.firstName, { title: p.title ?? null }); }));
// CPU time, which a loaded machine does not inflate: other people, each for the first time.
const others = generatedPeople(2000, 57).map((p, i): Party => ({ firstName: `O${i}`, estimate: p.estimate, title: p.title ?? null }));
let nextOther = 0;
const profileFirstCpu = summarize(
  cpuTime(others.length, () => {
    const p = others[nextOther++ % others.length] ?? recipient;
    describePersonality(shipped.phrases, p.estimate, p.firstName, { title: p.title ?? null });
  }),
);
const connectVaried = summarize(time(varied.length, () => composeConnectRecommendations(person(), shipped)));
const relationshipVaried = summarize(time(varied.length, () => composeRelationship(person(), person(), shipped.relationship)));
const emailsVaried = summarize(time(varied.length, () => composeSampleEmails(person(), person(), shipped.emails)));
const messageVaried = summarize(time(varied.length, () => recommendMessage(text, person(), person(), shipped.messaging)));

console.log('Connect composers (in-process)');
console.log(`  recommendMessage, ${words}-word draft   median ${messaging.median.toFixed(3)} ms  p95 ${messaging.p95.toFixed(3)} ms  (target: < 5 ms)`);
console.log(`  recommendMessage, ${words}-word draft, CPU time  median ${messagingCpu.median.toFixed(3)} ms  p95 ${messagingCpu.p95.toFixed(3)} ms`);
console.log(`  recommendMessage, one 20,000-char word median ${oneWord.median.toFixed(3)} ms  p95 ${oneWord.p95.toFixed(3)} ms`);
console.log(`  composeRelationship                  median ${relationship.median.toFixed(3)} ms  p95 ${relationship.p95.toFixed(3)} ms`);
console.log(`  composeConnectRecommendations        median ${recommendations.median.toFixed(3)} ms  p95 ${recommendations.p95.toFixed(3)} ms`);
console.log(`  composeSampleEmails                  median ${emails.median.toFixed(3)} ms  p95 ${emails.p95.toFixed(3)} ms`);
console.log(`  profile content, 2,000 varied people, first time  median ${profileFirst.median.toFixed(3)} ms  p95 ${profileFirst.p95.toFixed(3)} ms`);
console.log(`  profile content, the same people again    median ${profileAgain.median.toFixed(3)} ms  p95 ${profileAgain.p95.toFixed(3)} ms`);
console.log(`  profile content, first time, CPU time      median ${profileFirstCpu.median.toFixed(3)} ms  p95 ${profileFirstCpu.p95.toFixed(3)} ms`);
console.log(`  C2 recommendations, varied people         median ${connectVaried.median.toFixed(3)} ms  p95 ${connectVaried.p95.toFixed(3)} ms`);
console.log(`  relationship, varied pairs                median ${relationshipVaried.median.toFixed(3)} ms  p95 ${relationshipVaried.p95.toFixed(3)} ms`);
console.log(`  sample emails, varied pairs               median ${emailsVaried.median.toFixed(3)} ms  p95 ${emailsVaried.p95.toFixed(3)} ms`);
console.log(`  message, 300-word draft, varied pairs     median ${messageVaried.median.toFixed(3)} ms  p95 ${messageVaried.p95.toFixed(3)} ms`);
console.log(`  300-word draft vs the 5 ms target: median ${(messaging.median / 5).toFixed(3)} ×, p95 ${(messaging.p95 / 5).toFixed(3)} × wall, ${(messagingCpu.p95 / 5).toFixed(3)} × CPU (target < 1)`);

/** A checker of three arguments: the `--before` checkout's (training/drafts/score.ts gives it its library if it takes one), and this one's given its library. */
type Checker = (text: string, sender: Party, recipient: Party) => unknown;
const current: Checker = (text, sender, recipient) => recommendMessage(text, sender, recipient, shipped.messaging);

/** CPU time of `runs` calls, in ms a call. */
function cpuPerCall(runs: number, fn: () => void): number {
  const start = process.cpuUsage();
  for (let i = 0; i < runs; i += 1) fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / runs;
}

/** This checker against another, in alternating rounds (so both see the same load): medians and the median of the rounds' ratios. */
function against(before: Checker, work: () => (check: Checker) => void, runs: number): { now: number; then: number; ratio: number; low: number; high: number } {
  const job = work();
  for (let i = 0; i < runs; i += 1) {
    job(current);
    job(before);
  }
  const now: number[] = [];
  const then: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < 21; round += 1) {
    const b = cpuPerCall(runs, () => job(before));
    const a = cpuPerCall(runs, () => job(current));
    then.push(b);
    now.push(a);
    ratios.push(a / b);
  }
  const median = (values: number[]): number => [...values].sort((x, y) => x - y)[values.length >> 1] ?? Number.NaN;
  return { now: median(now), then: median(then), ratio: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios) };
}

const { values } = parseArgs({ options: { before: { type: 'string' } } });
if (values.before !== undefined) {
  const { recommend: before } = await checkoutChecker(values.before);
  const drafts = readDrafts();
  const parties = drafts.map((d) => ({ text: d.text, sender: party('Sam', 0.5, 0.2), recipient: party(d.recipient.first_name, d.recipient.style === 'D' || d.recipient.style === 'I' ? 0.6 : -0.6, d.recipient.style === 'I' || d.recipient.style === 'S' ? 0.5 : -0.5) }));
  const long = against(before, () => (check) => void check(text, sender, recipient), 100);
  const labelled = against(before, () => (check) => {
    for (const p of parties) check(p.text, p.sender, p.recipient);
  }, 5);
  console.log(`Draft checker against ${values.before} (CPU time, alternating rounds)`);
  console.log(`  ${words}-word draft      now ${long.now.toFixed(3)} ms  before ${long.then.toFixed(3)} ms  ratio ${long.ratio.toFixed(2)} × (rounds ${long.low.toFixed(2)}–${long.high.toFixed(2)})`);
  console.log(`  ${drafts.length} labelled drafts  now ${labelled.now.toFixed(3)} ms  before ${labelled.then.toFixed(3)} ms  ratio ${labelled.ratio.toFixed(2)} × (rounds ${labelled.low.toFixed(2)}–${labelled.high.toFixed(2)})`);
}
