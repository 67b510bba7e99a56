/**
 * In-process speed of the personality engine: the text model on a 1,000-word text, with and
 * without evidence, the whole description (views and advice), the slowest of a set of
 * adversarial text shapes per 100,000 characters (linear time), and a long text through the
 * worker pool against the same text on the main thread.
 */
import { readFileSync } from 'node:fs';
import { analyzeText, DEFAULT_MODEL_PATH, loadModel } from '../src/personality/text/index.ts';
import { TextPool } from '../src/personality/text/pool.ts';
import { describePersonality } from '../src/content/describe.ts';
import { BENCH_TEXT_1000 } from './texts.ts';
import { summarize, timeRuns as time } from './stats.ts';
import { loadContent } from '../src/content/load-content.ts';

const shipped = loadContent();

const words = BENCH_TEXT_1000.split(/\s+/).length;
// The model file alone, read and parsed again: the best of three (a busy machine can set one aside).
let modelLoadMs = Number.POSITIVE_INFINITY;
for (let i = 0; i < 3; i += 1) {
  const started = performance.now();
  loadModel(DEFAULT_MODEL_PATH);
  modelLoadMs = Math.min(modelLoadMs, performance.now() - started);
}
const loadStart = performance.now();
const model = loadModel();
const first = analyzeText(BENCH_TEXT_1000, { model });
const firstMs = performance.now() - loadStart;
if (!first.ok) throw new Error(`bench text yielded no personality: ${first.reason}`);

time(50, () => analyzeText(BENCH_TEXT_1000, { model }));
const plain = summarize(time(500, () => analyzeText(BENCH_TEXT_1000, { model })));
const withEvidence = summarize(time(500, () => analyzeText(BENCH_TEXT_1000, { evidence: true, model })));
const estimate = first.estimate;
const described = summarize(time(500, () => describePersonality(shipped.phrases, estimate, 'Sam')));

/**
 * CPU a text over real writing of every kind: the labelled corpus, each text once a round, plain
 * and with evidence. CPU time (process.cpuUsage) rather than wall time, so a shared machine's
 * descheduling does not count; per text and per 1,000 words.
 */
const corpus = readFileSync(new URL('../training/corpus/professional.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => String((JSON.parse(line) as { text?: unknown }).text ?? ''));
const corpusWords = corpus.reduce((sum, text) => sum + text.trim().split(/\s+/).length, 0);
function corpusCpu(evidence: boolean, rounds: number): number {
  for (const text of corpus) analyzeText(text, { evidence, model });
  const start = process.cpuUsage();
  for (let round = 0; round < rounds; round++) for (const text of corpus) analyzeText(text, { evidence, model });
  const used = process.cpuUsage(start);
  return (used.user + used.system) / rounds;
}
const corpusPlain = corpusCpu(false, 3);
const corpusEvidence = corpusCpu(true, 3);

console.log(`text model file load: best of 3 ${modelLoadMs.toFixed(1)} ms (target: < 500 ms)`);
console.log(`text model on a ${words}-word text (first call, model load included: ${firstMs.toFixed(1)} ms)`);
console.log(`  analyzeText                      median ${plain.median.toFixed(3)} ms  p95 ${plain.p95.toFixed(3)} ms  (target: median < 2 ms)`);
console.log(`  analyzeText with evidence  median ${withEvidence.median.toFixed(3)} ms  p95 ${withEvidence.p95.toFixed(3)} ms`);
console.log(`  describePersonality (views+advice) median ${described.median.toFixed(3)} ms  p95 ${described.p95.toFixed(3)} ms`);
const perText = (us: number) => `${(us / corpus.length).toFixed(0)} µs a text, ${((us / corpusWords) * 1000).toFixed(0)} µs per 1,000 words`;
console.log(`text model over the labelled corpus (${corpus.length} texts, ${Math.round(corpusWords / corpus.length)} words on average), CPU:`);
console.log(`  analyzeText                ${perText(corpusPlain)}`);
console.log(`  analyzeText with evidence  ${perText(corpusEvidence)}`);

/**
 * Shapes that took seconds before the patterns became linear (one unbroken word, runs before
 * an `@`, unclosed comments and tags, separators), each 100,000 characters, analysed the way
 * the API does (labelled, with evidence).
 */
const SHAPE_CHARS = 100_000;
const shapes: Record<string, string> = {
  'one word': 'a'.repeat(SHAPE_CHARS),
  'ab repeated': 'ab'.repeat(SHAPE_CHARS / 2),
  dots: '.'.repeat(SHAPE_CHARS),
  digits: '1'.repeat(SHAPE_CHARS),
  'letters then @': `${'a'.repeat(SHAPE_CHARS - 2)} @`,
  'www.': 'www.'.repeat(SHAPE_CHARS / 4),
  'unclosed <!--': '<!--'.repeat(SHAPE_CHARS / 4),
  'unclosed <p': '<p'.repeat(SHAPE_CHARS / 2),
  'hyphenated a-': 'a-'.repeat(SHAPE_CHARS / 2),
  'spaces between': `x${' '.repeat(SHAPE_CHARS - 2)}x`,
  'prose 100k': BENCH_TEXT_1000.repeat(Math.ceil(SHAPE_CHARS / BENCH_TEXT_1000.length)).slice(0, SHAPE_CHARS),
};
const shapeTimes = Object.entries(shapes).map(([name, text]) => {
  analyzeText(text, { evidence: true, model });
  return { name, ms: summarize(time(5, () => analyzeText(text, { evidence: true, model }))).median };
});
const slowest = shapeTimes.reduce((a, b) => (b.ms > a.ms ? b : a));
const per1000Words = withEvidence.median;
console.log(`\nadversarial shapes, ${SHAPE_CHARS.toLocaleString('en')} characters each (with evidence, median of 5):`);
for (const { name, ms } of shapeTimes) console.log(`  ${name.padEnd(16)} ${ms.toFixed(1)} ms`);
console.log(`  slowest shape: ${slowest.name}, ${slowest.ms.toFixed(1)} ms per 100,000 characters = ${(slowest.ms / per1000Words).toFixed(1)} × the 1,000-word text (${per1000Words.toFixed(3)} ms)`);

// The worker pool: one long text at a time through a worker against the main thread.
const pool = new TextPool({ model, modelPath: DEFAULT_MODEL_PATH, workers: 1, maxQueue: 100, inlineMaxChars: 1 });
const long = shapes['prose 100k'] ?? BENCH_TEXT_1000;
const mid = BENCH_TEXT_1000.repeat(5); // ~5,000 words
for (let i = 0; i < 5; i++) await pool.analyze(BENCH_TEXT_1000, { evidence: true });
async function timeAsync(runs: number, fn: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return samples;
}
console.log('\nworker pool round trip against the main thread (with evidence, median):');
for (const [label, text] of [['1,000 words', BENCH_TEXT_1000], ['5,000 words', mid], ['100,000 characters', long]] as const) {
  const inline = summarize(time(20, () => analyzeText(text, { evidence: true, model }))).median;
  const pooled = summarize(await timeAsync(20, () => pool.analyze(text, { evidence: true }))).median;
  console.log(`  ${label.padEnd(20)} ${text.length} chars: main thread ${inline.toFixed(2)} ms, worker ${pooled.toFixed(2)} ms (+${(pooled - inline).toFixed(2)} ms)`);
}
await pool.close();
