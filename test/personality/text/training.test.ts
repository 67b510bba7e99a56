import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { confidenceOf, empiricalCdf, lengthCurve, lengthFactor, standing } from '../../../src/personality/text/standing.ts';
import { readLabelledCorpus, type LabelledCorpus } from '../../../training/corpus.ts';
import type { TrainingConfig } from '../../../training/design.ts';
import { trainModel } from '../../../training/fit-model.ts';
import type { ProfessionalText } from '../../../training/professional.ts';
import type { DiscType } from '../../../src/personality/circle.ts';
import { analyzeText } from '../../../src/personality/text/index.ts';
import { modelFromFile } from '../../../src/personality/text/model.ts';
import { parseModelFile } from '../../../src/personality/text/model-file.ts';
import { fitLogistic, linearScores, priorMatchingThreshold, type SparseMatrix } from '../../../training/logistic.ts';
import { accuracy, majorityBaseline, quantiles, rocAuc } from '../../../training/metrics.ts';
import { seededRandom, stratifiedFolds } from '../../../training/random.ts';

function denseMatrix(rows: number[][]): SparseMatrix {
  const columns = rows[0]?.length ?? 0;
  return {
    rows: rows.length,
    columns,
    rowStart: Int32Array.from({ length: rows.length + 1 }, (_, i) => i * columns),
    columnIndex: Int32Array.from(rows.flatMap(() => Array.from({ length: columns }, (_, j) => j))),
    values: Float64Array.from(rows.flat()),
  };
}

describe('logistic regression', () => {
  it('reaches the optimum: the gradient of the penalised loss vanishes', () => {
    const random = seededRandom(7);
    const rows = Array.from({ length: 200 }, () => [random() * 2 - 1, random() * 2 - 1]);
    const labels = Uint8Array.from(rows, ([a = 0, b = 0]) => (2 * a - b + (random() - 0.5) > 0 ? 1 : 0));
    const matrix = denseMatrix(rows);
    const l2 = 0.01;
    const model = fitLogistic(matrix, labels, { l2 });
    const scores = linearScores(matrix, model);
    const gradient = [0, 0, 0];
    scores.forEach((z, i) => {
      const residual = 1 / (1 + Math.exp(-z)) - (labels[i] ?? 0);
      gradient[0] = (gradient[0] ?? 0) + (residual * (rows[i]?.[0] ?? 0)) / rows.length;
      gradient[1] = (gradient[1] ?? 0) + (residual * (rows[i]?.[1] ?? 0)) / rows.length;
      gradient[2] = (gradient[2] ?? 0) + residual / rows.length;
    });
    expect(Math.abs((gradient[0] ?? 0) + l2 * (model.weights[0] ?? 0))).toBeLessThan(1e-5);
    expect(Math.abs((gradient[1] ?? 0) + l2 * (model.weights[1] ?? 0))).toBeLessThan(1e-5);
    expect(Math.abs(gradient[2] ?? 0)).toBeLessThan(1e-5);
    expect(model.weights[0]).toBeGreaterThan(0);
    expect(model.weights[1]).toBeLessThan(0);
    expect(accuracy(scores, labels)).toBeGreaterThan(0.8);
  });

  it('thresholds so predictions split like the labels', () => {
    const logits = Float64Array.from([0.1, 0.2, 0.3, 0.4, 0.5]);
    const threshold = priorMatchingThreshold(logits, Uint8Array.from([0, 1, 0, 1, 1]));
    expect(threshold).toBeCloseTo(0.25, 10);
  });
});

describe('metrics and folds', () => {
  it('computes ROC AUC with ties counted half', () => {
    expect(rocAuc([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])).toBeCloseTo(0.75, 10);
    expect(rocAuc([1, 1, 1, 1], [0, 1, 0, 1])).toBe(0.5);
    expect(majorityBaseline([1, 1, 0])).toBeCloseTo(2 / 3, 10);
  });

  it('deals stratified folds of near-equal size and class balance, repeatably', () => {
    const labels = Uint8Array.from({ length: 103 }, (_, i) => (i % 3 === 0 ? 1 : 0));
    const folds = stratifiedFolds(labels, 10, 42);
    expect(stratifiedFolds(labels, 10, 42)).toEqual(folds);
    for (let fold = 0; fold < 10; fold++) {
      const members = [...folds.keys()].filter((i) => folds[i] === fold);
      expect(members.length).toBeGreaterThanOrEqual(10);
      expect(members.length).toBeLessThanOrEqual(11);
      const positives = members.filter((i) => labels[i] === 1).length;
      expect(positives).toBeGreaterThanOrEqual(3);
      expect(positives).toBeLessThanOrEqual(4);
    }
  });
});

describe('trainModel', () => {
  const random = seededRandom(11);
  const vocabulary = ['party', 'friends', 'talk', 'alone', 'quiet', 'book', 'think', 'the', 'and', 'we', 'i', 'happy', 'worried', 'work'];
  const corpus: LabelledCorpus = {
    sha256: 'test',
    traits: ['extraversion', 'agreeableness'],
    partialTraits: [],
    documents: Array.from({ length: 80 }, (_, index) => {
      const outgoing = index % 2 === 0;
      const words = Array.from({ length: 60 }, () => {
        const pick = vocabulary[Math.floor(random() * vocabulary.length)] ?? 'the';
        return outgoing && random() < 0.2 ? 'party' : pick;
      });
      return { id: String(index), text: `${words.join(' ')}.`, labels: { extraversion: outgoing, agreeableness: index % 3 === 0 } };
    }),
  };
  const config: TrainingConfig = { hashBits: 14, minDocumentFrequency: 2, denseWeight: 0.1, signalWeight: 0.1, vectorWeight: 0, ngramWeight: 1, l2: 0.01, clip: 5 };
  // Professional texts written to a style: "deadline" and "target" for D, "thanks" and "help" for S.
  const styles: Array<[DiscType, string]> = [
    ['D', 'We hit the target by Friday. Close the deals now. I expect results and no excuses this week.'],
    ['S', 'Thanks so much for your help. Happy to support the team together, no rush at all, take care.'],
    ['I', 'So excited to meet everyone at the party! We celebrate our amazing people and their stories!'],
    ['C', 'I verified the data and checked the figures against the source. The analysis has two caveats.'],
  ];
  const professional: ProfessionalText[] = Array.from({ length: 48 }, (_, index) => {
    const [label, sentence] = styles[index % 4] ?? ['D', ''];
    const genre = (['email', 'bio', 'resume', 'various'] as const)[Math.floor(index / 4) % 4] ?? 'email';
    return {
      id: `p${index}`,
      persona: `p${index}`,
      writer: 'test',
      textType: genre,
      genre: genre === 'various' ? 'profile' : genre,
      label,
      person: 'first',
      selfDescriptive: false,
      split: 'train',
      text: `${sentence} ${vocabulary.slice(0, 5 + (index % 7)).join(' ')}. ${sentence}`,
    };
  });
  const train = (withProfessional: boolean) =>
    trainModel(
      { essays: corpus, professional: withProfessional ? { texts: professional, file: 'slice', sha256: 'test' } : null, vectors: null },
      { config, joint: { professionalWeight: 3, domainScale: 1, labelStrength: 0.9 }, ngramOrder: 1, folds: 5, seed: 1, version: 'test', corpusFile: 'slice', log: () => {} },
    );

  it('is deterministic: the same data gives identical weights', () => {
    const first = train(false);
    const second = train(false);
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    expect(Object.keys(first.traits).sort()).toEqual(['agreeableness', 'extraversion']);
    expect(first.metrics.extraversion?.auc).toBeGreaterThan(0.9);
    expect(first.traits.extraversion?.professional).toBeUndefined();
  });

  it('with professional texts: a second reading for the circle traits, norms per kind of writing and a kind detector, deterministic', () => {
    const first = train(true);
    expect(JSON.stringify(train(true))).toBe(JSON.stringify(first));
    const extraversion = first.traits.extraversion;
    expect(extraversion?.professional?.dense.length).toBe(extraversion?.dense.length);
    expect(Object.keys(extraversion?.norms ?? {}).sort()).toEqual(['bio', 'email', 'profile', 'resume']);
    expect(first.genres?.weights.length).toBe(5);
    // The essays' own figures are still measured on the essays.
    expect(first.metrics.extraversion?.auc).toBeGreaterThan(0.9);
    // The professional reading tells a D text (low agreeableness) from an S text.
    const model = modelFromFile(parseModelFile(JSON.parse(JSON.stringify(first))));
    const read = (text: string, textType: 'email') => {
      const result = analyzeText(text, { model, textType });
      if (!result.ok) throw new Error(result.reason);
      return result.estimate.scores.agreeableness;
    };
    const d = `${styles[0]?.[1] ?? ''} ${styles[0]?.[1] ?? ''} ${vocabulary.join(' ')}.`;
    const s = `${styles[1]?.[1] ?? ''} ${styles[1]?.[1] ?? ''} ${vocabulary.join(' ')}.`;
    expect(read(s, 'email')).toBeGreaterThan(read(d, 'email'));
  });
});

describe('readLabelledCorpus', () => {
  it('trains only traits labelled on every line and names the others', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'rapport-corpus-')), 'own.jsonl');
    const lines = [
      { id: 'a', text: 'first text', extraversion: true, openness: false },
      { id: 'b', text: 'second text', extraversion: false },
      { text: 'third text', extraversion: true, openness: 'yes' },
    ];
    writeFileSync(path, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const corpus = readLabelledCorpus(path);
    expect(corpus.documents.map((doc) => doc.id)).toEqual(['a', 'b', '3']);
    expect(corpus.traits).toEqual(['extraversion']);
    expect(corpus.partialTraits).toEqual(['openness']);
    expect(corpus.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('names the line that is not JSON', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'rapport-corpus-')), 'bad.jsonl');
    writeFileSync(path, '{"text": "ok", "extraversion": true}\nnot json\n');
    expect(() => readLabelledCorpus(path)).toThrow(/bad\.jsonl:2/);
  });
});

describe('standing against the reference population', () => {
  const reference = quantiles(Array.from({ length: 1001 }, (_, i) => i / 1000 - 0.4), 101);

  it('reads quantiles back as the empirical CDF', () => {
    expect(empiricalCdf(reference, -0.4)).toBeCloseTo(0, 6);
    expect(empiricalCdf(reference, 0.1)).toBeCloseTo(0.5, 6);
    expect(empiricalCdf(reference, 0.35)).toBeCloseTo(0.75, 6);
    expect(empiricalCdf(reference, -9)).toBe(0);
    expect(empiricalCdf(reference, 9)).toBe(1);
    expect(empiricalCdf([0, 0, 0, 1], 0)).toBeCloseTo(2 / 3, 10);
  });

  it('spreads the reference population evenly over [-1, 1], keeping the sign of the decision', () => {
    const atThreshold = empiricalCdf(reference, 0);
    expect(atThreshold).toBeCloseTo(0.4, 6);
    expect(standing(reference, atThreshold, 0)).toBe(0);
    expect(standing(reference, atThreshold, -0.2)).toBeCloseTo(-0.5, 6);
    expect(standing(reference, atThreshold, 0.3)).toBeCloseTo(0.5, 6);
    expect(standing(reference, atThreshold, 5)).toBe(1);
    expect(standing(reference, atThreshold, -5)).toBe(-1);
    const random = seededRandom(5);
    for (let i = 0; i < 200; i++) {
      const z = random() * 2 - 1;
      const value = standing(reference, atThreshold, z);
      expect(Math.sign(value) === Math.sign(z) || value === 0).toBe(true);
      expect(Math.abs(value)).toBeLessThanOrEqual(1);
    }
  });

  it('builds a non-decreasing length curve from held-out AUCs and interpolates it from 0', () => {
    const curve = lengthCurve(
      [
        { words: 100, aucs: [0.56, 0.58] },
        { words: 50, aucs: [0.54, 0.52] },
        { words: 400, aucs: [0.55, 0.57] },
        { words: 2000, aucs: [0.6, 0.6] },
      ],
      [0.6, 0.6],
      600,
    );
    expect(curve.map(([words]) => words)).toEqual([50, 100, 400, 600]);
    expect(curve[0]?.[1]).toBeCloseTo(0.3, 10);
    expect(curve[1]?.[1]).toBeCloseTo(0.6, 10);
    expect(curve[2]?.[1]).toBeCloseTo(0.6, 10);
    expect(curve[3]?.[1]).toBe(1);
    expect(lengthFactor(curve, 25)).toBeCloseTo(0.15, 10);
    expect(lengthFactor(curve, 500)).toBeCloseTo(0.8, 10);
    expect(lengthFactor(curve, 5000)).toBe(1);
    expect(lengthFactor([], 10)).toBe(1);
  });

  it('caps confidence by the trait\'s reliability', () => {
    expect(confidenceOf(0.59, 1)).toBeCloseTo(0.18, 10);
    expect(confidenceOf(0.45, 1)).toBe(0);
    expect(confidenceOf(0.8, 0.5)).toBeCloseTo(0.3, 10);
  });
});
