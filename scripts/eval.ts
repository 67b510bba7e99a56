/**
 * Honest evaluation of Rapport's text model.
 *
 *   npm run eval -- [labelled.jsonl] [--repeats 3] [--folds 10] [--seed 1] [--no-stability]
 *
 * Repeated stratified k-fold cross-validation with the shipped training settings: every
 * fold refits the standardiser, the n-gram vocabulary, the weights and the decision
 * threshold on its training part only. Features are extracted once (they do not depend
 * on labels); training runs per fold.
 *
 * Stability (training/stability.ts): the DISC type rests on extraversion and
 * agreeableness only, so in the first repeat each of those two traits' fold models also
 * scores edited versions of its held-out essays: the two halves, the text lower-cased,
 * re-punctuated, without one sentence (three sentences chosen at random, one at a time),
 * and cut to 60 words. Every held-out essay is used (no sampling). Standings are read
 * the way the service reads them (length-aware, training/calibration.ts), against
 * quantiles of this run's own out-of-fold values: the same construction as the shipped
 * model's, on the same folds (calibration uses no labels).
 *
 * Shown intensity (src/personality/shrink.ts): two disjoint runs of L words of one essay
 * are two readings of one writer; the slope of one on the other (pooled over extraversion
 * and agreeableness, both ways) is the reliability at L, which the shipped n / (n + k)
 * should follow. Beside it, how far apart the two runs' points land, and the mean intensity
 * of held-out texts of each length before and after the shrink.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { traitsToPoint } from '../src/personality/circle.ts';
import { DENSE_NAMES } from '../src/personality/text/features.ts';
import type { DiscPoint, Trait } from '../src/personality/types.ts';
import { calibrate, calibratedStanding, EXCERPT_LENGTHS, type TraitCalibration } from '../training/calibration.ts';
import { labelsFor, readLabelledCorpus } from '../training/corpus.ts';
import { crossValidate } from '../training/cross-validate.ts';
import type { PreparedDocument, TrainingConfig } from '../training/design.ts';
import { DEFAULT_CONFIG, DEFAULT_JOINT, DEFAULT_NGRAM_ORDER, VOCABULARY_SIZE } from '../training/fit-model.ts';
import { crossValidateJoint, type JointData } from '../training/joint.ts';
import { prepareTexts, tokensOf } from '../training/prepare.ts';
import { readProfessionalCorpus } from '../training/professional.ts';
import { loadVocabulary, namesOf } from '../training/word-vectors.ts';
import { evaluateProfessional } from '../training/eval-report.ts';
import { majorityBaseline, meanAndSd } from '../training/metrics.ts';
import { evidenceWeight, PRIOR_WORDS } from '../src/personality/shrink.ts';
import { DEFAULT_MODEL_PATH, loadModel } from '../src/personality/text/index.ts';
import { lengthFactor } from '../src/personality/text/standing.ts';
import { fitPriorWords, splitHalfSlope } from '../training/shrink.ts';
import { agreement, firstWords, maxShareRatio, repunctuate, splitHalves, typeShares, withOneSentenceRemoved, type Agreement } from '../training/stability.ts';

// The C4 draft checker on the labelled drafts (training/drafts/): first, and alone with --drafts.
if (await (await import('../training/drafts/report.ts')).draftsReport(process.argv.slice(2))) process.exit(0);

/** Published 10-fold accuracies on the full 2,467-essay corpus (training/corpus/README.md). */
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
  options: {
    repeats: { type: 'string' },
    folds: { type: 'string' },
    seed: { type: 'string' },
    traits: { type: 'string' },
    // Experiments: override a shipped training setting, e.g. --set l2=0.03 --set minDocumentFrequency=10.
    set: { type: 'string', multiple: true },
    // Experiments: leave dense measures out (comma-separated DENSE_NAMES, e.g. style:comma).
    'drop-dense': { type: 'string' },
    'no-stability': { type: 'boolean' },
    'no-essays': { type: 'boolean' },
    'no-professional': { type: 'boolean' },
    professional: { type: 'string' },
    // Reads every length against the full-length population, as models before v2 did.
    'full-length-calibration': { type: 'boolean' },
  },
});
const corpusPath = resolve(repoRoot, positionals[0] ?? 'training/corpus/essays.jsonl');
const repeats = Number(values.repeats ?? 3);
const folds = Number(values.folds ?? 10);
const seed = Number(values.seed ?? 1);
const withStability = values['no-stability'] !== true;
const fullLengthOnly = values['full-length-calibration'] === true;

const config: TrainingConfig = { ...DEFAULT_CONFIG };
for (const assignment of values.set ?? []) {
  const [key, value] = assignment.split('=');
  if (key === undefined || !(key in config) || value === undefined || !Number.isFinite(Number(value))) throw new Error(`--set ${assignment}: expected one of ${Object.keys(config).join(', ')}=<number>`);
  Object.assign(config, { [key]: Number(value) });
}

const started = performance.now();
const professionalPath = resolve(repoRoot, values.professional ?? 'training/corpus/professional.jsonl');
const professionalCorpus = readProfessionalCorpus(professionalPath);
if (values['no-professional'] !== true) await evaluateProfessional(loadModel(DEFAULT_MODEL_PATH), professionalCorpus.texts);
if (values['no-essays'] === true) process.exit(0);
const corpus = readLabelledCorpus(corpusPath);
const onlyTraits = values.traits?.split(',');
const traits = corpus.traits.filter((trait) => onlyTraits === undefined || onlyTraits.includes(trait));
const texts = corpus.documents.map((doc) => doc.text);
const dropped = (values['drop-dense']?.split(',') ?? []).map((name) => {
  const index = DENSE_NAMES.indexOf(name);
  if (index < 0) throw new Error(`--drop-dense ${name}: not one of ${DENSE_NAMES.join(', ')}`);
  return index;
});
// A measure held at 0 in every text standardises to 0 and moves nothing: as if left out.
const professionalTraining = professionalCorpus.texts.filter((text) => text.split === 'train');
const names = namesOf([...texts, ...professionalTraining.map((text) => text.text)].map(tokensOf));
const vectors = config.vectorWeight > 0 ? loadVocabulary(VOCABULARY_SIZE, names) : null;
const prepare = (variant: readonly string[]) =>
  prepareTexts(variant, config, DEFAULT_NGRAM_ORDER, vectors).map((doc) => {
    for (const index of dropped) doc.dense[index] = 0;
    return doc;
  });
const docs = prepare(texts);
const jointData: JointData = {
  docs: [...docs, ...prepare(professionalTraining.map((text) => text.text))],
  essayLabels: { extraversion: labelsFor(corpus.documents, 'extraversion'), agreeableness: labelsFor(corpus.documents, 'agreeableness') },
  professional: professionalTraining,
};
console.log(`\n== Essays: real writers and their own questionnaires (${corpusPath}: ${corpus.documents.length} documents)`);
console.log(`extraversion and agreeableness are trained with the ${professionalTraining.length} professional training texts as well (joint, as shipped)`);
console.log(`${repeats}× stratified ${folds}-fold cross-validation, seeds ${seed}..${seed + repeats - 1}; settings ${JSON.stringify({ ...config, ngramOrder: DEFAULT_NGRAM_ORDER })}`);
console.log('accuracy: mean ± sd over all folds; decision at the threshold that splits the training part like its labels\n');

/**
 * Extraversion or agreeableness as shipped: trained on the essays and the professional texts
 * together (joint.ts), scored on held-out essays; repeats reshuffle the folds (seeds seed…).
 */
function jointCrossValidation(trait: 'extraversion' | 'agreeableness', variants: ReadonlyArray<readonly PreparedDocument[]>) {
  const foldAccuracy: number[] = [];
  const foldAuc: number[] = [];
  const outOfFoldLogits: Float64Array[] = [];
  let alternativeLogits: Float64Array[] = [];
  let crossAuc = 0;
  for (let repeat = 0; repeat < repeats; repeat++) {
    const cv = crossValidateJoint(jointData, { config, ...DEFAULT_JOINT }, folds, seed + repeat, [], repeat === 0 ? variants : []);
    foldAccuracy.push(...cv.foldAccuracy[trait]);
    foldAuc.push(...cv.foldAuc[trait]);
    outOfFoldLogits.push(cv.outOfFold[trait].slice(0, corpus.documents.length));
    if (repeat === 0) alternativeLogits = cv.essayVariants[trait];
    crossAuc += cv.professionalReadingEssayAuc[trait] / repeats;
  }
  crossReading.push(`${trait} ${crossAuc.toFixed(3)}`);
  return { foldAccuracy, foldAuc, outOfFoldLogits, alternativeLogits };
}

/** Edited versions of every essay; an empty string where an essay has no such version. */
const REMOVALS = 3;
const SHORT_WORDS = 60;
/** Lengths of the two disjoint runs of one essay compared for the shrink (essays of 2L words or more). */
const SPLIT_LENGTHS = [50, 100, 200, 300];
function wordRuns(text: string, words: number): [string, string] {
  const all = text.split(/\s+/).filter((word) => word !== '');
  if (all.length < 2 * words) return ['', ''];
  return [all.slice(0, words).join(' '), all.slice(words, 2 * words).join(' ')];
}
const variantTexts: Record<string, string[]> = {};
if (withStability) {
  const halves = texts.map(splitHalves);
  const removed = texts.map((text, index) => withOneSentenceRemoved(text, REMOVALS, seed * 100_003 + index));
  variantTexts.firstHalf = halves.map(([first]) => first);
  variantTexts.secondHalf = halves.map(([, second]) => second);
  variantTexts.lowerCased = texts.map((text) => text.toLowerCase());
  variantTexts.repunctuated = texts.map(repunctuate);
  for (let r = 0; r < REMOVALS; r++) variantTexts[`removed${r}`] = removed.map((versions) => versions[r] ?? '');
  variantTexts.short = texts.map((text) => firstWords(text, SHORT_WORDS));
  for (const words of EXCERPT_LENGTHS) variantTexts[`excerpt${words}`] = texts.map((text) => firstWords(text, words));
  for (const words of SPLIT_LENGTHS) {
    const runs = texts.map((text) => wordRuns(text, words));
    variantTexts[`runA${words}`] = runs.map(([first]) => first);
    variantTexts[`runB${words}`] = runs.map(([, second]) => second);
  }
}
const variantNames = Object.keys(variantTexts);
const variantDocs = variantNames.map((name) => prepare(variantTexts[name] ?? []));
const typicalWords = [...docs.map((doc) => doc.wordCount)].sort((a, b) => a - b)[Math.floor(docs.length / 2)] ?? 0;

const percent = (value: number): string => `${(100 * value).toFixed(1)}`;
const header = ['trait', 'accuracy %', 'ROC AUC', 'majority %', 'Majumder 2017 %', 'BERT 2020 %'];
const widths = [18, 13, 14, 11, 16, 12];
const line = (cells: string[]): string => cells.map((cell, i) => cell.padEnd(widths[i] ?? 12)).join(' ');
console.log(line(header));
console.log(line(widths.map((width) => '-'.repeat(width))));

/** Per circle trait: its calibration, and its out-of-fold logits of each variant (first repeat). */
const circle: Partial<Record<Trait, { calibration: TraitCalibration; full: Float64Array; variants: Float64Array[] }>> = {};
const crossReading: string[] = [];
for (const trait of traits) {
  const labels = labelsFor(corpus.documents, trait);
  const onCircle = trait === 'extraversion' || trait === 'agreeableness';
  const result = onCircle ? jointCrossValidation(trait, variantDocs) : crossValidate(docs, labels, { ...config, vectorWeight: 0 }, { folds, repeats, seed }, []);
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
  const full = result.outOfFoldLogits[0];
  if (onCircle && withStability && full !== undefined) {
    const excerpts = EXCERPT_LENGTHS.map((words) => result.alternativeLogits[variantNames.indexOf(`excerpt${words}`)] ?? new Float64Array(0));
    const calibration = calibrate(full, fullLengthOnly ? [] : excerpts, typicalWords);
    circle[trait] = { calibration, full, variants: result.alternativeLogits };
  }
}
console.log('\npublished figures are on the full 2,467-essay corpus; this file is a 1,988-essay subset.');
console.log(`the professional reading (the weights professional writing is read with) on the same held-out essays, ROC AUC: ${crossReading.join(', ')}`);
console.log('(what that reading knows of real writers; chance is 0.500)');

const e = circle.extraversion;
const a = circle.agreeableness;
if (withStability && e !== undefined && a !== undefined) {
  const pointOf = (index: number, variant: number | 'full'): DiscPoint | undefined => {
    const docsOfVariant = variant === 'full' ? docs : variantDocs[variant];
    const words = docsOfVariant?.[index]?.wordCount ?? 0;
    const text = variant === 'full' ? texts[index] : variantTexts[variantNames[variant] ?? '']?.[index];
    if (text === undefined || text === '' || words === 0) return undefined;
    const zE = (variant === 'full' ? e.full : e.variants[variant])?.[index] ?? 0;
    const zA = (variant === 'full' ? a.full : a.variants[variant])?.[index] ?? 0;
    // The length factor scales both traits alike, so it moves no point's angle or type; left out.
    return traitsToPoint({ extraversion: calibratedStanding(e.calibration, zE, words), agreeableness: calibratedStanding(a.calibration, zA, words) });
  };
  const variant = (name: string): number => variantNames.indexOf(name);
  const pairsOf = (one: number | 'full', two: number | 'full'): Array<[DiscPoint, DiscPoint]> =>
    texts.flatMap((_, index) => {
      const p = pointOf(index, one);
      const q = pointOf(index, two);
      return p !== undefined && q !== undefined ? [[p, q] as [DiscPoint, DiscPoint]] : [];
    });
  const removedPairs = Array.from({ length: REMOVALS }, (_, r) => pairsOf('full', variant(`removed${r}`))).flat();
  const rows: Array<[string, Agreement, string]> = [
    ['split halves (whole sentences)', agreement(pairsOf(variant('firstHalf'), variant('secondHalf'))), 'within one step ≥ 60 %'],
    [`one sentence removed (${REMOVALS} per essay)`, agreement(removedPairs), 'same type ≥ 95 %'],
    ['lower-cased', agreement(pairsOf('full', variant('lowerCased'))), 'same type 100 %'],
    ['re-punctuated', agreement(pairsOf('full', variant('repunctuated'))), ''],
  ];
  console.log('\nstability (first repeat, held-out essays; type from extraversion and agreeableness)\n');
  const stabilityWidths = [40, 8, 10, 17, 14, 24];
  const row = (cells: string[]): string => cells.map((cell, i) => cell.padEnd(stabilityWidths[i] ?? 12)).join(' ');
  console.log(row(['comparison', 'pairs', 'same %', 'within 1 step %', 'median angle', 'target']));
  console.log(row(stabilityWidths.map((width) => '-'.repeat(width))));
  for (const [name, figures, target] of rows) {
    console.log(row([name, String(figures.pairs), percent(figures.sameType), percent(figures.withinOneStep), `${figures.medianAngle.toFixed(1)}°`, target]));
  }
  const fullPoints = texts.flatMap((_, index) => pointOf(index, 'full') ?? []);
  const shortPoints = texts.flatMap((_, index) => pointOf(index, variant('short')) ?? []);
  const fullShares = typeShares(fullPoints);
  const shortShares = typeShares(shortPoints);
  const worst = maxShareRatio(shortPoints, fullPoints);
  console.log(`\ntypes at ${SHORT_WORDS} words against full essays (share %; target: no type more than 2× as frequent)`);
  console.log(Object.keys(fullShares).map((type) => type.padEnd(6)).join(''));
  console.log(Object.values(fullShares).map((share) => percent(share).padEnd(6)).join(''));
  console.log(Object.values(shortShares).map((share) => percent(share).padEnd(6)).join(''));
  console.log(`largest ratio: ${worst.type} ${worst.ratio.toFixed(2)}× (add-one smoothed counts)`);

  // The reading's length factor as shipped; both runs of a pair share it, so it leaves the slope alone.
  const shipped = loadModel(DEFAULT_MODEL_PATH);
  const scaled = (p: DiscPoint, words: number): DiscPoint => ({ x: p.x * lengthFactor(shipped.lengthCurve, words), y: p.y * lengthFactor(shipped.lengthCurve, words) });
  const intensity = (p: DiscPoint): number => 100 * Math.hypot(p.x, p.y);
  const mean = (values: readonly number[]): number => values.reduce((sum, v) => sum + v, 0) / Math.max(values.length, 1);
  const splits = SPLIT_LENGTHS.map((words) => {
    const pairs = pairsOf(variant(`runA${words}`), variant(`runB${words}`));
    return { words, pairs, slope: splitHalfSlope(pairs) };
  });
  const fitted = fitPriorWords(splits.map(({ words, pairs, slope }) => ({ words, slope, weight: pairs.length })));
  console.log('\nshown intensity by text length (held-out; intensity = 100 × distance from the centre, reading = length factor × standing)');
  console.log('two disjoint runs of L words of one essay: reliability = slope of one run\'s standing on the other\'s (E and A pooled)\n');
  const shrinkWidths = [8, 7, 13, 14, 16, 15, 14];
  const shrinkRow = (cells: string[]): string => cells.map((cell, i) => cell.padEnd(shrinkWidths[i] ?? 12)).join(' ');
  console.log(shrinkRow(['words', 'pairs', 'reliability', `n/(n+${PRIOR_WORDS})`, 'runs apart', 'intensity read', 'shown']));
  console.log(shrinkRow(shrinkWidths.map((width) => '-'.repeat(width))));
  for (const { words, pairs, slope } of splits) {
    const read = pairs.flatMap(([p, q]) => [scaled(p, words), scaled(q, words)]);
    const apart = mean(read.map((p, i) => (i % 2 === 0 ? Math.hypot(p.x - (read[i + 1]?.x ?? 0), p.y - (read[i + 1]?.y ?? 0)) : Number.NaN)).filter(Number.isFinite));
    const weight = evidenceWeight(words);
    const intensities = [mean(read.map(intensity)).toFixed(1), mean(read.map((p) => weight * intensity(p))).toFixed(1)];
    console.log(shrinkRow([String(words), String(pairs.length), slope.toFixed(3), weight.toFixed(3), (100 * apart).toFixed(1), ...intensities]));
  }
  const halves = splitHalfSlope(pairsOf(variant('firstHalf'), variant('secondHalf')));
  const halfWords = typicalWords / 2;
  console.log(`k fitted to these runs: ${fitted} words (shipped: ${PRIOR_WORDS})`);
  console.log(
    `whole essays cut in two (about ${halfWords.toFixed(0)} words each): reliability ${halves.toFixed(3)}; for the whole essay (Spearman-Brown) ` +
      `${((2 * halves) / (1 + halves)).toFixed(3)}, shipped n/(n+${PRIOR_WORDS}) at ${typicalWords} words ${evidenceWeight(typicalWords).toFixed(3)}\n`,
  );
  console.log(shrinkRow(['words', 'texts', '', '', '', 'intensity read', 'shown']));
  const lengthRows: Array<[string, number | 'full']> = [...EXCERPT_LENGTHS.map((words): [string, number] => [String(words), variant(`excerpt${words}`)]), ['whole essay', 'full']];
  for (const [label, which] of lengthRows) {
    const read = texts.flatMap((_, index) => {
      const p = pointOf(index, which);
      const words = (which === 'full' ? docs : variantDocs[which])?.[index]?.wordCount ?? 0;
      return p === undefined ? [] : [{ p: scaled(p, words), words }];
    });
    console.log(shrinkRow([label, String(read.length), '', '', '', mean(read.map(({ p }) => intensity(p))).toFixed(1), mean(read.map(({ p, words }) => evidenceWeight(words) * intensity(p))).toFixed(1)]));
  }
}
console.log(`\n${((performance.now() - started) / 1000).toFixed(0)} s`);
