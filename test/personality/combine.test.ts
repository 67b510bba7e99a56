import { describe, expect, it } from 'vitest';
import { combineEstimates } from '../../src/personality/combine.ts';
import type { TraitEstimate, TraitScores } from '../../src/personality/types.ts';

function traits(value: number, overrides: Partial<TraitScores> = {}): TraitScores {
  return { extraversion: value, agreeableness: value, conscientiousness: value, openness: value, neuroticism: value, ...overrides };
}

function estimate(score: number, confidence: number, words: number, source: TraitEstimate['source'] = 'prediction'): TraitEstimate {
  return { scores: traits(score), confidence: traits(confidence), source, modelVersion: 'm1', wordCount: words };
}

describe('combineEstimates', () => {
  it('keeps the one there is when the other is missing', () => {
    const one = estimate(0.4, 0.1, 100);
    expect(combineEstimates(one, null)).toBe(one);
    expect(combineEstimates(null, one)).toBe(one);
    expect(combineEstimates(null, null)).toBeNull();
  });

  it('a long stored bio is not overruled by one short line that says the opposite', () => {
    const bio = estimate(0.6, 0.18, 650);
    const line = estimate(-0.9, 0.09, 45);
    const combined = combineEstimates(bio, line);
    expect(combined?.scores.extraversion).toBeGreaterThan(0.2);
    expect(combined?.scores.extraversion).toBeLessThan(0.6);
    expect(combined?.wordCount).toBe(695);
  });

  it('two readings of equal weight meet in the middle, and confidence grows with the evidence', () => {
    const combined = combineEstimates(estimate(0.5, 0.1, 300), estimate(-0.1, 0.1, 300));
    expect(combined?.scores.openness).toBeCloseTo(0.2, 4);
    expect(combined?.confidence.openness).toBeGreaterThan(0.1);
    expect(combined?.confidence.openness).toBeLessThanOrEqual(1);
    expect(combined?.source).toBe('prediction');
    expect(combined?.evidence).toBeUndefined();
  });

  it('a tested personality wins over any text', () => {
    const tested = estimate(-0.7, 0.95, 0, 'assessment');
    expect(combineEstimates(tested, estimate(0.9, 0.2, 5000))).toBe(tested);
    expect(combineEstimates(estimate(0.9, 0.2, 5000), tested)).toBe(tested);
  });

  it('falls back to word counts for a trait neither reading is confident about', () => {
    const a: TraitEstimate = { ...estimate(0.3, 0, 300), confidence: traits(0) };
    const b: TraitEstimate = { ...estimate(-0.3, 0, 100), confidence: traits(0) };
    expect(combineEstimates(a, b)?.scores.neuroticism).toBeCloseTo(0.15, 4);
  });
});
