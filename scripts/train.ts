/**
 * Trains Rapport's text model and writes its weights file.
 *
 *   npm run train -- [labelled.jsonl] [--out model.json] [--version name]
 *
 * The input is JSON Lines, `{id, text, <trait>: boolean, ...}` per line (true = above the
 * median). Traits not labelled on every line are skipped. Defaults: the shared essays
 * corpus and the committed model file.
 *
 * The output depends only on the corpus and the settings (no timestamp), so training again on
 * the same data rewrites the committed file byte for byte and `git diff` shows nothing.
 */
import { statSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { TRAITS } from '../src/personality/types.ts';
import { DEFAULT_MODEL_PATH } from '../src/personality/text/model.ts';
import { readLabelledCorpus } from '../training/corpus.ts';
import { DEFAULT_CONFIG, DEFAULT_NGRAM_ORDER, trainModel } from '../training/fit-model.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { out: { type: 'string' }, version: { type: 'string' }, seed: { type: 'string' } },
});
const corpusPath = resolve(repoRoot, positionals[0] ?? '../shared/data/essays/essays.jsonl');
const outPath = values.out !== undefined ? resolve(values.out) : DEFAULT_MODEL_PATH;
const seed = Number(values.seed ?? 1);

const started = performance.now();
const corpus = readLabelledCorpus(corpusPath);
console.log(`corpus: ${corpusPath}`);
console.log(`  ${corpus.documents.length} documents, sha256 ${corpus.sha256.slice(0, 16)}…`);
for (const trait of TRAITS) {
  if (corpus.partialTraits.includes(trait)) console.log(`  skipping ${trait}: labelled on some documents but not all`);
  else if (!corpus.traits.includes(trait)) console.log(`  skipping ${trait}: no labels in this file`);
}
if (corpus.traits.length === 0) {
  console.error('nothing to train: no trait is labelled on every document');
  process.exit(1);
}

// The version names the data it was trained on, so a retrained model is never mistaken
// for the shipped one (profiles are recomputed when the version changes).
const version = values.version ?? `rapport-text-v2+${corpus.sha256.slice(0, 8)}`;
const model = trainModel(corpus, {
  config: DEFAULT_CONFIG,
  ngramOrder: DEFAULT_NGRAM_ORDER,
  folds: 10,
  seed,
  version,
  corpusFile: basename(corpusPath),
  log: (message) => console.log(`  ${message}`),
});
writeFileSync(outPath, `${JSON.stringify(model)}\n`);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`wrote ${outPath} (${version}, ${(statSync(outPath).size / 1024).toFixed(0)} KiB, ${model.ngramBuckets.length} n-gram buckets) in ${seconds} s`);
