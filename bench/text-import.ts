/**
 * The import's analysis alone, single-threaded: what an analysis thread does per person
 * (src/people/analysis-worker.ts: the estimate from the person's texts, and the texts' hash),
 * over the import bench's people (bench/people.ts), without a database or threads.
 *
 *   npx tsx bench/text-import.ts [--people N] [--rounds N] [--before <checkout>] [--stages]
 *
 * Prints CPU a person (process.cpuUsage: a loaded machine's descheduling does not count) and
 * per 1,000 words, for the whole reading and for the hash alone, with the load beside each round.
 * `--before <checkout>`: that checkout's reading takes turns with this one's, round by round, in
 * this process, and every person's estimate and hash are compared between the two (they must be
 * byte-identical). `--stages`: CPU a person in each stage of the reading (text-stages.ts), this
 * checkout's, or with `--before` both checkouts' taking turns.
 * Profile with `node --cpu-prof --import tsx bench/text-import.ts`.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { analyzeTexts } from '../src/people/analyze.ts';
import type { TextSample } from '../src/people/person.ts';
import type { textsHash } from '../src/people/upsert.ts';
import type { loadModel } from '../src/personality/text/model.ts';
import { countWords } from '../src/personality/text/matches.ts';
import { generatePeople } from './people.ts';
import { stageCosts } from './text-stages.ts';

/** People read by one reader before the other takes its turn. */
const CHUNK = 250;

interface Reader {
  name: string;
  /** What an analysis thread returns for one person, as JSON (for the comparison). */
  read(texts: readonly TextSample[]): string;
  hash(texts: readonly TextSample[]): string;
}

async function readerAt(root: string, name: string): Promise<Reader> {
  const load = (file: string) => import(pathToFileURL(path.resolve(root, file)).href) as Promise<Record<string, unknown>>;
  const analyze = (await load('src/people/analyze.ts')) as { analyzeTexts: typeof analyzeTexts };
  const upsert = (await load('src/people/upsert.ts')) as { textsHash: typeof textsHash };
  const models = (await load('src/personality/text/model.ts')) as { loadModel: typeof loadModel };
  const model = models.loadModel();
  return {
    name,
    read: (texts) => JSON.stringify([analyze.analyzeTexts(model, texts).estimate, upsert.textsHash(texts)]),
    hash: (texts) => upsert.textsHash(texts),
  };
}

/** µs of CPU (user + system) `work` took. */
function cpuOf(work: () => void): number {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

/**
 * CPU a person in each stage (text-stages.ts). With a before checkout, its own text-stages.ts
 * takes turns with this one's (`STAGE_TURNS` each, in turn: AB, BA), the lowest figure per stage kept, so
 * a load that comes and goes weighs on both alike.
 */
async function printStages(people: TextSample[][], before: string | undefined): Promise<void> {
  type StageCosts = typeof stageCosts;
  const sides: [string, StageCosts][] = [['this checkout', stageCosts]];
  if (before !== undefined) {
    const theirs = (await import(pathToFileURL(path.resolve(before, 'bench/text-stages.ts')).href)) as { stageCosts: StageCosts };
    sides.unshift([`before (${before})`, theirs.stageCosts]);
  }
  const lowest = new Map<string, Map<string, number>>(sides.map(([name]) => [name, new Map()]));
  const turns = before === undefined ? 1 : STAGE_TURNS;
  for (let turn = 0; turn < turns; turn++) {
    for (const [name, costsOf] of turn % 2 === 0 ? sides : [...sides].reverse()) {
      const kept = lowest.get(name) ?? new Map<string, number>();
      for (const [stage, us] of costsOf(people)) kept.set(stage, Math.min(kept.get(stage) ?? Number.POSITIVE_INFINITY, us));
    }
  }
  const [first] = lowest.values();
  console.log(`  ${'stage'.padEnd(34)} ${sides.map(([name]) => name).join(' | ')} (µs a person)`);
  for (const stage of first?.keys() ?? []) {
    console.log(`  ${stage.padEnd(34)} ${sides.map(([name]) => (lowest.get(name)?.get(stage) ?? Number.NaN).toFixed(1)).join(' | ')}`);
  }
  console.log(`load ${loadavg()[0]?.toFixed(1)}`);
}

/** Turns each side takes in a before/after stage comparison. */
const STAGE_TURNS = 2;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { people: { type: 'string', default: '20000' }, rounds: { type: 'string' }, before: { type: 'string' }, stages: { type: 'boolean', default: false } } });
  const count = Number(values.people);
  const rounds = Number(values.rounds ?? (values.before === undefined ? 1 : 3));
  const dir = await mkdtemp(path.join(tmpdir(), 'rapport-bench-text-import-'));
  let people: TextSample[][];
  try {
    const file = path.join(dir, 'people.jsonl');
    await generatePeople(file, count);
    people = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { texts: TextSample[] }).texts);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const words = people.reduce((sum, texts) => sum + texts.reduce((s, t) => s + countWords(t.text), 0), 0);
  console.log(`${count} people, ${Math.round(words / count)} words a person on average, ${new Set(people.map((t) => t[0]?.text)).size} distinct texts`);

  if (values.stages) await printStages(people, values.before);

  const ours = await readerAt(path.resolve(import.meta.dirname, '..'), 'this checkout');
  const readers = values.before === undefined ? [ours] : [await readerAt(values.before, `before (${values.before})`), ours];
  if (readers.length > 1) {
    // Outside the timed rounds: every person's reading, byte for byte.
    let differ = 0;
    for (const texts of people.slice(0, 2000)) if (readers[0]?.read(texts) !== ours.read(texts)) differ++;
    console.log(differ === 0 ? 'outputs: the first 2,000 people read byte-identically by both' : `outputs: ${differ} of 2,000 people DIFFER`);
  }
  // Warm-up: V8's compilers and the word memos, as an import's first batches warm them.
  for (const reader of readers) for (const texts of people.slice(0, 2000)) reader.read(texts);

  const results = new Map<string, number[]>();
  for (let round = 1; round <= rounds; round++) {
    // The readers take turns every CHUNK people (which goes first alternating, ABBA), so a load
    // that comes and goes on a shared machine weighs on both alike; their CPU is summed per round.
    const used = new Map(readers.map((reader) => [reader.name, 0]));
    for (let from = 0, turn = 0; from < people.length; from += CHUNK, turn++) {
      const chunk = people.slice(from, from + CHUNK);
      for (const reader of turn % 2 === 0 ? readers : [...readers].reverse()) {
        const us = cpuOf(() => {
          for (const texts of chunk) reader.read(texts);
        });
        used.set(reader.name, (used.get(reader.name) ?? 0) + us);
      }
    }
    for (const reader of readers) {
      const all = used.get(reader.name) ?? 0;
      const hash = cpuOf(() => {
        for (const texts of people) reader.hash(texts);
      });
      results.set(reader.name, [...(results.get(reader.name) ?? []), all / count]);
      console.log(
        `round ${round} [${reader.name}]: ${(all / count).toFixed(0)} µs of CPU a person, ${(all / words).toFixed(3)} ms per 1,000 words; the hash alone ${(hash / count).toFixed(1)} µs; load ${loadavg()[0]?.toFixed(1)}`,
      );
    }
  }
  if (readers.length > 1) {
    const [before, after] = readers.map((reader) => results.get(reader.name) ?? []);
    const ratios = (after ?? []).map((us, i) => us / (before?.[i] ?? Number.NaN));
    console.log(`after / before, round by round: ${ratios.map((r) => r.toFixed(3)).join(', ')}`);
  }
}

await main();
