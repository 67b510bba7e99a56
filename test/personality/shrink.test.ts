import { describe, expect, it } from 'vitest';
import { combineEstimates } from '../../src/personality/combine.ts';
import { evidenceWeight, PRIOR_WORDS } from '../../src/personality/shrink.ts';
import { analyzeText, loadModel } from '../../src/personality/text/index.ts';
import type { TraitEstimate, TraitScores } from '../../src/personality/types.ts';
import { personalityView, viewFromPoint } from '../../src/personality/views.ts';
import { describePersonality } from '../../src/content/describe.ts';
import { OUTGOING_TEXT } from '../fixtures/texts.ts';
import { shipped } from '../helpers/content.ts';

const model = loadModel();

function traits(value: number): TraitScores {
  return { extraversion: value, agreeableness: value, conscientiousness: value, openness: value, neuroticism: value };
}

describe('evidenceWeight: n / (n + k)', () => {
  it('keeps half a reading at k words, none at none, and grows toward 1', () => {
    expect(evidenceWeight(0)).toBe(0);
    expect(evidenceWeight(PRIOR_WORDS)).toBeCloseTo(0.5, 10);
    expect(evidenceWeight(207)).toBeCloseTo(207 / 507, 10);
    expect(evidenceWeight(10_000)).toBeGreaterThan(0.97);
    expect(evidenceWeight(Number.NaN)).toBe(0);
    expect(evidenceWeight(-5)).toBe(0);
  });
});

describe('the shown estimate is what the evidence supports', () => {
  it('shrinks a text reading once, where it is made: every view shows the shrunk point', () => {
    const result = analyzeText(OUTGOING_TEXT, { model });
    if (!result.ok) throw new Error('the outgoing text should yield a personality');
    const { estimate } = result;
    const weight = evidenceWeight(estimate.wordCount);
    expect(estimate.evidenceWeight).toBeCloseTo(weight, 4);
    const view = personalityView(estimate);
    const unshrunk = viewFromPoint({ x: view.point.x / weight, y: view.point.y / weight });
    // Shrinking moves the point toward the centre along its own direction: same type, lower intensity.
    expect(view.discType).toBe(unshrunk.discType);
    expect(view.discIntensity).toBeLessThan(unshrunk.discIntensity);
    expect(Math.abs(view.discIntensity - weight * unshrunk.discIntensity)).toBeLessThanOrEqual(1);
    // The profile's advice is chosen at the same point the numbers show.
    const described = describePersonality(shipped.phrases, estimate);
    expect(described.view.discIntensity).toBe(view.discIntensity);
    expect(described.view.point).toEqual(view.point);
  });

  it('does not shrink a tested personality', () => {
    const tested: TraitEstimate = { scores: traits(0.6), confidence: traits(0.95), source: 'assessment', modelVersion: 'ipip', wordCount: 0 };
    expect(personalityView(tested).discIntensity).toBe(Math.round(100 * Math.min(1, Math.hypot(0.6, 0.6))));
    const text = analyzeText(OUTGOING_TEXT, { model });
    expect(combineEstimates(tested, text.ok ? text.estimate : null)).toBe(tested);
  });

  it('combines two texts unshrunk and shrinks them for the words of both', () => {
    const one: TraitEstimate = { scores: traits(0.6 * evidenceWeight(300)), confidence: traits(0.15), source: 'prediction', modelVersion: 'm', wordCount: 300, evidenceWeight: evidenceWeight(300) };
    const two: TraitEstimate = { scores: traits(0.6 * evidenceWeight(600)), confidence: traits(0.2), source: 'prediction', modelVersion: 'm', wordCount: 600, evidenceWeight: evidenceWeight(600) };
    const combined = combineEstimates(one, two);
    // Both read 0.6 before shrinking; together they rest on 900 words.
    expect(combined?.scores.extraversion).toBeCloseTo(0.6 * evidenceWeight(900), 3);
    expect(combined?.evidenceWeight).toBeCloseTo(evidenceWeight(900), 4);
    expect(combined?.scores.extraversion).toBeGreaterThan(two.scores.extraversion);
    // An estimate stored before shrinking has no weight: it is read as it stands.
    const legacy: TraitEstimate = { scores: traits(0.4), confidence: traits(0.2), source: 'prediction', modelVersion: 'm', wordCount: 600 };
    expect(combineEstimates(legacy, { ...legacy })?.evidenceWeight).toBeUndefined();
    expect(combineEstimates(legacy, { ...legacy })?.scores.openness).toBeCloseTo(0.4, 4);
  });
});
