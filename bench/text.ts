/**
 * In-process speed of the personality engine: the text model on a 1,000-word text, with and
 * without evidence, and the whole description (views and advice).
 */
import { analyzeText, loadModel } from '../src/personality/text/index.ts';
import { describePersonality } from '../src/profiles/describe.ts';
import { BENCH_TEXT_1000 } from './texts.ts';
import { summarize } from './stats.ts';

function time(runs: number, fn: () => void): number[] {
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  return samples;
}

const words = BENCH_TEXT_1000.split(/\s+/).length;
const loadStart = performance.now();
const model = loadModel();
const first = analyzeText(BENCH_TEXT_1000, { model });
const firstMs = performance.now() - loadStart;
if (!first.ok) throw new Error(`bench text yielded no personality: ${first.reason}`);

time(50, () => analyzeText(BENCH_TEXT_1000, { model }));
const plain = summarize(time(500, () => analyzeText(BENCH_TEXT_1000, { model })));
const withEvidence = summarize(time(500, () => analyzeText(BENCH_TEXT_1000, { labelled: true, evidence: true, model })));
const estimate = first.estimate;
const described = summarize(time(500, () => describePersonality(estimate, 'Sam')));

console.log(`text model on a ${words}-word text (first call, model load included: ${firstMs.toFixed(1)} ms)`);
console.log(`  analyzeText                      median ${plain.median.toFixed(3)} ms  p95 ${plain.p95.toFixed(3)} ms  (target: median < 2 ms)`);
console.log(`  analyzeText labelled + evidence  median ${withEvidence.median.toFixed(3)} ms  p95 ${withEvidence.p95.toFixed(3)} ms`);
console.log(`  describePersonality (views+advice) median ${described.median.toFixed(3)} ms  p95 ${described.p95.toFixed(3)} ms`);
