/**
 * Honest evaluation of Rapport's text model.
 *
 *   npm run eval -- [labelled.jsonl] [--repeats 3] [--folds 10] [--seed 1]
 *
 * Repeated stratified k-fold cross-validation with the shipped training settings: every
 * fold refits the standardiser, the n-gram vocabulary, the weights and the decision
 * threshold on its training part only. Features are extracted once (they do not depend
 * on labels); training runs per fold.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Trait } from '../src/personality/types.ts';
import { labelsFor, readLabelledCorpus } from '../training/corpus.ts';
import { crossValidate } from '../training/cross-validate.ts';
import { DEFAULT_CONFIG, DEFAULT_NGRAM_ORDER, prepareCorpus } from '../training/fit-model.ts';
import { majorityBaseline, meanAndSd } from '../training/metrics.ts';

/** Published 10-fold accuracies on the full 2,467-essay corpus (shared/data/README.md). */
const PUBLISHED: Record<Trait, { majumder2017: number; bert2020: number }> = {
  extraversion: { majumder2017: 58.09, bert2020: 60.0 },
  agreeableness: { majumder2017: 56.71, bert2020: 58.8 },
  conscientiousness: { majumder2017: 57.3, bert2020: 59.2 },
  openness: { majumder2017: 62.68, bert2020: 64.6 },
  neuroticism: { majumder2017: 59.38, bert2020: 60.5 },
};

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { repeats: { type: 'string' }, folds: { type: 'string' }, seed: { type: 'string' } },
});
const corpusPath = resolve(repoRoot, positionals[0] ?? '../shared/data/essays/essays.jsonl');
const repeats = Number(values.repeats ?? 3);
const folds = Number(values.folds ?? 10);
const seed = Number(values.seed ?? 1);

const started = performance.now();
const corpus = readLabelledCorpus(corpusPath);
const docs = prepareCorpus(
  corpus.documents.map((doc) => doc.text),
  DEFAULT_CONFIG,
  DEFAULT_NGRAM_ORDER,
);
console.log(`${corpusPath}: ${corpus.documents.length} documents`);
console.log(`${repeats}× stratified ${folds}-fold cross-validation, seeds ${seed}..${seed + repeats - 1}; settings ${JSON.stringify({ ...DEFAULT_CONFIG, ngramOrder: DEFAULT_NGRAM_ORDER })}`);
console.log('accuracy: mean ± sd over all folds; decision at the threshold that splits the training part like its labels\n');

const percent = (value: number): string => `${(100 * value).toFixed(1)}`;
const header = ['trait', 'accuracy %', 'ROC AUC', 'majority %', 'Majumder 2017 %', 'BERT 2020 %'];
const widths = [18, 13, 14, 11, 16, 12];
const line = (cells: string[]): string => cells.map((cell, i) => cell.padEnd(widths[i] ?? 12)).join(' ');
console.log(line(header));
console.log(line(widths.map((width) => '-'.repeat(width))));
for (const trait of corpus.traits) {
  const labels = labelsFor(corpus.documents, trait);
  const result = crossValidate(docs, labels, DEFAULT_CONFIG, { folds, repeats, seed });
  const accuracy = meanAndSd(result.foldAccuracy);
  const auc = meanAndSd(result.foldAuc);
  const published = PUBLISHED[trait];
  console.log(
    line([
      trait,
      `${percent(accuracy.mean)} ± ${percent(accuracy.sd)}`,
      `${auc.mean.toFixed(3)} ± ${auc.sd.toFixed(3)}`,
      percent(majorityBaseline(labels)),
      published.majumder2017.toFixed(1),
      published.bert2020.toFixed(1),
    ]),
  );
}
console.log(`\npublished figures are on the full 2,467-essay corpus; this file is a 1,988-essay subset. ${((performance.now() - started) / 1000).toFixed(0)} s`);
