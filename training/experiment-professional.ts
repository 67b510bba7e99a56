/**
 * Screening the joint model's settings on the professional corpus's training split only
 * (the held-out quarter is never read here):
 *
 *   npx tsx training/experiment-professional.ts <corpus.jsonl> [--grid signalWeight=0.1,0.3 professionalWeight=1,3 ...]
 *
 * For each combination: 10-fold cross-validation of extraversion and agreeableness on essays and
 * professional texts together (joint.ts); prints the essays' AUC, the professional texts' quadrant
 * agreement (read against their genre's norms, norms.ts), per genre, the opposite-quadrant rate,
 * and the agreement with self-descriptions deleted.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { labelsFor, readLabelledCorpus } from './corpus.ts';
import { DEFAULT_CONFIG, DEFAULT_JOINT, DEFAULT_NGRAM_ORDER, VOCABULARY_SIZE } from './fit-model.ts';
import { prepareTexts, tokensOf } from './prepare.ts';
import type { TrainingConfig } from './design.ts';
import { crossValidateJoint, type JointData, type JointSettings } from './joint.ts';
import { genreNorms, normStanding } from './norms.ts';
import { personaFolds, quadrantOf, readProfessionalCorpus } from './professional.ts';

/** Ordinary least squares by the normal equations (3 unknowns). */
function leastSquares(rows: number[][], target: number[]): number[] {
  const n = rows[0]?.length ?? 0;
  const m = Array.from({ length: n }, () => new Array<number>(n + 1).fill(0));
  rows.forEach((row, r) => {
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) (m[i] as number[])[j] = ((m[i] as number[])[j] ?? 0) + (row[i] ?? 0) * (row[j] ?? 0);
      (m[i] as number[])[n] = ((m[i] as number[])[n] ?? 0) + (row[i] ?? 0) * (target[r] ?? 0);
    }
  });
  for (let i = 0; i < n; i++) {
    const pivot = (m[i] as number[])[i] || 1e-12;
    for (let j = i; j <= n; j++) (m[i] as number[])[j] = ((m[i] as number[])[j] ?? 0) / pivot;
    for (let k = 0; k < n; k++) {
      if (k === i) continue;
      const f = (m[k] as number[])[i] ?? 0;
      for (let j = i; j <= n; j++) (m[k] as number[])[j] = ((m[k] as number[])[j] ?? 0) - f * ((m[i] as number[])[j] ?? 0);
    }
  }
  return m.map((row) => row[n] ?? 0);
}
import { withoutSelfDescriptions } from './self-descriptions.ts';
import { loadVocabulary, namesOf } from './word-vectors.ts';
import type { Genre } from '../src/personality/text/genre.ts';
import { angularDistance, pointAngle, pointToType, traitsToPoint, typeCentre } from '../src/personality/circle.ts';
import { dominantStyle } from './norms.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values, positionals } = parseArgs({ allowPositionals: true, options: { grid: { type: 'string', multiple: true }, folds: { type: 'string' } } });
const corpusPath = resolve(positionals[0] ?? 'training/corpus/professional.jsonl');
const folds = Number(values.folds ?? 10);

const base: JointSettings & { config: TrainingConfig } = {
  config: { ...DEFAULT_CONFIG },
  ...DEFAULT_JOINT,
};
const grid: Array<[string, number[]]> = (values.grid ?? []).map((entry) => {
  const [key, list] = entry.split('=');
  return [key ?? '', (list ?? '').split(',').map(Number)];
});
function combinations(index: number, current: Array<[string, number]>): Array<Array<[string, number]>> {
  const entry = grid[index];
  if (entry === undefined) return [current];
  return entry[1].flatMap((value) => combinations(index + 1, [...current, [entry[0], value]]));
}

const started = performance.now();
const essays = readLabelledCorpus(resolve(repoRoot, 'training/corpus/essays.jsonl'));
const professional = readProfessionalCorpus(corpusPath).texts.filter((text) => text.split === 'train');
const vectors = process.env.VECTORS === '0' ? null : loadVocabulary(VOCABULARY_SIZE, namesOf([...essays.documents.map((doc) => doc.text), ...professional.map((text) => text.text)].map(tokensOf)));
const prepare = (texts: readonly string[]) => prepareTexts(texts, base.config, process.env.BIGRAMS === '1' ? 2 : DEFAULT_NGRAM_ORDER, vectors);
const docs = [...prepare(essays.documents.map((doc) => doc.text)), ...prepare(professional.map((text) => text.text))];
const removed = prepare(professional.map((text) => withoutSelfDescriptions(text.text)));
const data: JointData = {
  docs,
  essayLabels: { extraversion: labelsFor(essays.documents, 'extraversion'), agreeableness: labelsFor(essays.documents, 'agreeableness') },
  professional,
};
console.log(`${essays.documents.length} essays, ${professional.length} professional training texts; features in ${((performance.now() - started) / 1000).toFixed(0)} s`);

const OPPOSITE: Record<string, string> = { D: 'S', S: 'D', I: 'C', C: 'I' };
const genres = professional.map((text) => text.genre);
for (const combination of combinations(0, [])) {
  const settings: JointSettings = { ...base, config: { ...base.config } };
  for (const [key, value] of combination) {
    if (key in settings.config) Object.assign(settings.config, { [key]: value });
    else Object.assign(settings, { [key]: value });
  }
  const t0 = performance.now();
  const cv = crossValidateJoint(data, settings, folds, 1, [removed]);
  const essayCount = essays.documents.length;
  const proValues = (trait: 'extraversion' | 'agreeableness') => cv.outOfFold[trait].slice(essayCount);
  const normsE = genreNorms(proValues('extraversion'), genres);
  const normsA = genreNorms(proValues('agreeableness'), genres);
  const linear = (norm: number[] | undefined, z: number): number => {
    const q = norm ?? [0, 0];
    const mid = q[10] ?? 0;
    const spread = ((q[18] ?? 1) - (q[2] ?? 0)) / 2 || 1;
    return Math.tanh((z - mid) / spread);
  };
  const standingOf = (norm: number[] | undefined, z: number): number => (process.env.NORM === 'linear' ? linear(norm, z) : normStanding(norm ?? [0, 0], z));
  const rawPoint = (zE: number, zA: number, genre: Genre) =>
    traitsToPoint({ extraversion: standingOf(normsE[genre], zE), agreeableness: standingOf(normsA[genre], zA) });
  // Affine calibration of the professional reading onto the labels' directions, cross-fitted by persona fold.
  const calibrations = new Map<number, number[]>();
  const personaFold = personaFolds(professional, folds, 1);
  if (process.env.CALIBRATE === '1') {
    const E = proValues('extraversion');
    const A = proValues('agreeableness');
    for (let fold = 0; fold < folds; fold++) {
      const rows: number[][] = [];
      const tx: number[] = [];
      const ty: number[] = [];
      professional.forEach((text, k) => {
        if (personaFold[k] === fold) return;
        const p = rawPoint(E[k] ?? 0, A[k] ?? 0, text.genre);
        rows.push([p.x, p.y, 1]);
        const angle = (typeCentre(text.label) * Math.PI) / 180;
        tx.push(Math.cos(angle));
        ty.push(Math.sin(angle));
      });
      calibrations.set(fold, [...leastSquares(rows, tx), ...leastSquares(rows, ty)]);
    }
  }
  let current = 0;
  const pointOf = (zE: number, zA: number, genre: Genre) => {
    const p = rawPoint(zE, zA, genre);
    const c = calibrations.get(personaFold[current] ?? 0);
    if (c === undefined) return p;
    return { x: (c[0] ?? 0) * p.x + (c[1] ?? 0) * p.y + (c[2] ?? 0), y: (c[3] ?? 0) * p.x + (c[4] ?? 0) * p.y + (c[5] ?? 0) };
  };
  const tally = (valuesE: ArrayLike<number>, valuesA: ArrayLike<number>) => {
    const byGenre = new Map<string, [number, number]>();
    const byQuadrant = new Map<string, [number, number]>();
    const confusion = new Map<string, number>();
    const byLabel = new Map<string, [number, number]>();
    let right = 0;
    let opposite = 0;
    let firstLetter = 0;
    let angleError = 0;
    professional.forEach((text, k) => {
      current = k;
      const point = pointOf(valuesE[k] ?? 0, valuesA[k] ?? 0, text.genre);
      const read = dominantStyle(point);
      if (quadrantOf(pointToType(point)) === quadrantOf(text.label)) firstLetter++;
      angleError += angularDistance(pointAngle(point), typeCentre(text.label));
      const wanted = quadrantOf(text.label);
      const ok = read === wanted ? 1 : 0;
      confusion.set(`${wanted}>${read}`, (confusion.get(`${wanted}>${read}`) ?? 0) + 1);
      const l = byLabel.get(text.label) ?? [0, 0];
      byLabel.set(text.label, [l[0] + ok, l[1] + 1]);
      right += ok;
      if (OPPOSITE[wanted] === read) opposite++;
      const g = byGenre.get(text.textType) ?? [0, 0];
      byGenre.set(text.textType, [g[0] + ok, g[1] + 1]);
      const q = byQuadrant.get(wanted) ?? [0, 0];
      byQuadrant.set(wanted, [q[0] + ok, q[1] + 1]);
    });
    const pct = (a: number, b: number) => `${((100 * a) / Math.max(b, 1)).toFixed(0)}%`;
    return {
      all: `${pct(right, professional.length)} [first letter of type ${pct(firstLetter, professional.length)}, mean angle error ${(angleError / professional.length).toFixed(0)}°]`,
      opposite: pct(opposite, professional.length),
      genres: [...byGenre].map(([g, [a, b]]) => `${g} ${pct(a, b)}`).join(' '),
      quadrants: [...byQuadrant].sort().map(([q, [a, b]]) => `${q} ${pct(a, b)}`).join(' '),
      labels: [...byLabel].sort().map(([q, [a, b]]) => `${q} ${pct(a, b)}`).join(' '),
      confusion: [...confusion].filter(([key]) => key[0] !== key[2]).sort((a, b) => b[1] - a[1]).map(([key, n]) => `${key} ${n}`).join(', '),
    };
  };
  const full = tally(proValues('extraversion'), proValues('agreeableness'));
  const bare = tally(cv.alternatives.extraversion[0] ?? [], cv.alternatives.agreeableness[0] ?? []);
  console.log(
    `${combination.map(([k, v]) => `${k}=${v}`).join(' ') || 'base'}: essays AUC E ${cv.essayAuc.extraversion.toFixed(3)} A ${cv.essayAuc.agreeableness.toFixed(3)} ` +
      `(professional reading E ${cv.professionalReadingEssayAuc.extraversion.toFixed(3)} A ${cv.professionalReadingEssayAuc.agreeableness.toFixed(3)}) | ` +
      `professional ${full.all} (opposite ${full.opposite}; ${full.genres}; ${full.quadrants}) | without self-descriptions ${bare.all} | ${((performance.now() - t0) / 1000).toFixed(0)} s\n    misread: ${full.confusion}\n    by label: ${full.labels}`,
  );
}
