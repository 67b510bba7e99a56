/**
 * CPU a person in each stage of an import's reading of a person's texts (bench/text-import.ts
 * `--stages`), this checkout only. Each stage's cost is the difference between running the
 * reading up to it and up to the stage before, every person read afresh (nothing kept between
 * people, so the garbage collector sees what an import gives it).
 */
import type { TextSample } from '../src/people/person.ts';
import { textsHash } from '../src/people/upsert.ts';
import { analyzeText } from '../src/personality/text/index.ts';
import { extractFeatures } from '../src/personality/text/features.ts';
import { genreFeatures } from '../src/personality/text/genre.ts';
import { rejectionOf } from '../src/personality/text/junk.ts';
import { cleanLabelledText } from '../src/personality/text/labelled.ts';
import { stripMarkup } from '../src/personality/text/markup.ts';
import { loadModel } from '../src/personality/text/model.ts';
import { predict } from '../src/personality/text/predict.ts';
import { tokenize } from '../src/personality/text/tokenizer.ts';

function cpu(work: () => void): number {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

/** [stage, µs of CPU a person], in the order the reading runs them. */
export function stageCosts(people: readonly (readonly TextSample[])[]): [string, number][] {
  const model = loadModel();
  const joined = people.map((texts) => texts.map((t) => t.text).join('\n\n'));
  const upTo = (stage: number) => (text: string): unknown => {
    const source = cleanLabelledText(text);
    if (stage === 0) return source;
    const read = stripMarkup(source);
    if (stage === 1) return read;
    const tokens = tokenize(read);
    if (stage === 2) return tokens;
    const reason = rejectionOf(text, tokens);
    if (stage === 3) return reason;
    if (stage === 4) return extractFeatures(tokens, model.hashBits, model.ngramOrder);
    const prediction = predict(model, tokens, false);
    if (stage === 5) return prediction;
    return genreFeatures(text, tokens.words);
  };
  const names = ['cleanLabelledText', 'stripMarkup', 'tokenize', 'rejectionOf', 'features (in predict)', 'predict, the rest', 'genreFeatures'];
  const runs = [...names.map((_, stage) => upTo(stage)), (text: string) => analyzeText(text, { model })];
  const costs = new Array<number>(runs.length).fill(Number.POSITIVE_INFINITY);
  // Three turns each (after a first), the lowest kept: the stages are differences, and a loaded machine's noise would swamp them.
  for (let turn = 0; turn < 4; turn++) {
    runs.forEach((run, r) => {
      const us = cpu(() => {
        for (const text of joined) run(text);
      });
      // The first turn compiles the code and fills the word memos, as an import's first batches do.
      if (turn > 0) costs[r] = Math.min(costs[r] ?? Number.POSITIVE_INFINITY, us / joined.length);
    });
  }
  const hash = cpu(() => {
    for (const texts of people) textsHash(texts);
  });
  const whole = costs[runs.length - 1] ?? Number.NaN;
  const lastStage = costs[names.length - 1] ?? Number.NaN;
  return [
    ...names.map((name, stage): [string, number] => [name, (costs[stage] ?? 0) - (stage === 0 ? 0 : (costs[stage - 1] ?? 0))]),
    ['analyzeText, the rest (standing…)', whole - lastStage],
    ['analyzeText, whole', whole],
    ['textsHash', hash / people.length],
  ];
}
