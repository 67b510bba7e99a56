import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DISC_TYPES, discPercentages, traitsToPoint } from '../../src/personality/circle.ts';
import { ARCHETYPES, ENNEAGRAM_TABLE, archetypeName, enneagramType, myersBriggs } from '../../src/personality/typologies.ts';
import type { TraitEstimate, TraitScores } from '../../src/personality/types.ts';
import { personalityView, pointConfidence, viewFromPoint } from '../../src/personality/views.ts';

const score = fc.double({ min: -1, max: 1, noNaN: true });
const anyScore = fc.oneof(score, fc.constantFrom(0, -0, Number.NaN, 5, -5));
const scoresArb = fc.record({
  extraversion: anyScore,
  agreeableness: anyScore,
  conscientiousness: anyScore,
  openness: anyScore,
  neuroticism: anyScore,
});
const zero: TraitScores = { extraversion: 0, agreeableness: 0, conscientiousness: 0, openness: 0, neuroticism: 0 };

describe('myersBriggs', () => {
  it('maps each trait to its letter pair', () => {
    expect(myersBriggs({ ...zero, extraversion: 0.6, openness: 0.3, agreeableness: 0.2, conscientiousness: 0.9 })).toBe('ENFJ');
    expect(myersBriggs({ ...zero, extraversion: -0.6, openness: -0.3, agreeableness: -0.2, conscientiousness: -0.9 })).toBe('ISTP');
    expect(myersBriggs({ ...zero, extraversion: 0.1, openness: -0.1, agreeableness: -0.5, conscientiousness: 0.4 })).toBe('ESTJ');
  });

  it('sends exact ties and NaN to I, S, T, P', () => {
    expect(myersBriggs(zero)).toBe('ISTP');
    expect(myersBriggs({ extraversion: Number.NaN, agreeableness: Number.NaN, conscientiousness: -0, openness: Number.NaN, neuroticism: 0 })).toBe('ISTP');
  });

  it('always gives four valid letters', () => {
    fc.assert(
      fc.property(scoresArb, (s) => {
        expect(myersBriggs(s)).toMatch(/^[EI][SN][TF][JP]$/);
      }),
    );
  });
});

describe('enneagramType', () => {
  it('gives 1–9 for every type and any traits, deterministically', () => {
    fc.assert(
      fc.property(fc.constantFrom(...DISC_TYPES.map((t) => t.code)), scoresArb, (code, s) => {
        const type = enneagramType(code, s);
        expect(Number.isInteger(type) && type >= 1 && type <= 9).toBe(true);
        expect(enneagramType(code, { ...s })).toBe(type);
      }),
      { numRuns: 2000 },
    );
  });

  it('ends every table row list with an unconditional default', () => {
    for (const { code } of DISC_TYPES) {
      const rules = ENNEAGRAM_TABLE[code];
      expect(rules.length).toBeGreaterThan(0);
      expect(rules[rules.length - 1]?.when).toEqual([]);
    }
  });

  it('follows the documented families', () => {
    expect(enneagramType('D', zero)).toBe(8);
    expect(enneagramType('D', { ...zero, conscientiousness: 0.8 })).toBe(3);
    expect(enneagramType('I', zero)).toBe(7);
    expect(enneagramType('I', { ...zero, conscientiousness: 0.5 })).toBe(3);
    expect(enneagramType('S', zero)).toBe(9);
    expect(enneagramType('S', { ...zero, neuroticism: 0.5 })).toBe(6);
    expect(enneagramType('SC', { ...zero, neuroticism: 0.5, openness: 0.5 })).toBe(4);
    expect(enneagramType('C', zero)).toBe(5);
    expect(enneagramType('C', { ...zero, conscientiousness: 0.3 })).toBe(1);
    expect(enneagramType('Si', zero)).toBe(2);
    expect(enneagramType('Si', { ...zero, neuroticism: -0.6 })).toBe(9);
  });

  it('reaches all nine types', () => {
    const reached = new Set<number>();
    const levels = [-0.8, 0, 0.8];
    for (const { code } of DISC_TYPES)
      for (const c of levels)
        for (const o of levels)
          for (const n of levels) reached.add(enneagramType(code, { ...zero, conscientiousness: c, openness: o, neuroticism: n }));
    expect([...reached].sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

describe('archetypeName', () => {
  it('gives 16 distinct names of one or two words', () => {
    const names = DISC_TYPES.map((t) => archetypeName(t.code));
    expect(new Set(names).size).toBe(16);
    names.forEach((name) => expect(name).toMatch(/^[A-Z][a-z]+( [A-Z][a-z]+)?$/));
    expect(Object.keys(ARCHETYPES)).toHaveLength(16);
  });
});

describe('personality views', () => {
  const estimate = (scores: TraitScores, confidence: Partial<TraitScores> = {}): TraitEstimate => ({
    scores,
    confidence: { ...zero, extraversion: 0.8, agreeableness: 0.6, ...confidence },
    source: 'prediction',
    modelVersion: 'test',
    wordCount: 400,
  });

  it('computes every view from one estimate', () => {
    const scores = { extraversion: 0.7, agreeableness: 0.5, conscientiousness: 0.4, openness: 0.3, neuroticism: -0.2 };
    const view = personalityView(estimate(scores));
    const point = traitsToPoint(scores);
    expect(view.point).toEqual(point);
    expect(view.discType.charAt(0)).toBe('I');
    expect(view.discPercentages).toEqual(discPercentages(point));
    expect(view.discIntensity).toBe(Math.round(100 * Math.hypot(point.x, point.y)));
    expect(view.myersBriggsType).toBe('ENFJ');
    expect(view.archetype).toBe(archetypeName(view.discType));
    expect(view.enneagramType).toBe(enneagramType(view.discType, scores));
    expect(view.confidence).toBe(70);
  });

  it('confidence is the mean of the two placing confidences, as an integer 0–100', () => {
    expect(pointConfidence({ extraversion: 1, agreeableness: 0 })).toBe(50);
    expect(pointConfidence({ extraversion: Number.NaN, agreeableness: 2 })).toBe(50);
    fc.assert(
      fc.property(anyScore, anyScore, (e, a) => {
        const c = pointConfidence({ extraversion: e, agreeableness: a });
        expect(Number.isInteger(c) && c >= 0 && c <= 100).toBe(true);
      }),
    );
  });

  it('never yields NaN, whatever the estimate', () => {
    fc.assert(
      fc.property(scoresArb, scoresArb, (scores, confidence) => {
        const view = personalityView(estimate(scores, confidence));
        const numbers = [view.point.x, view.point.y, view.angle, view.discIntensity, view.confidence, view.enneagramType];
        numbers.forEach((n) => expect(Number.isFinite(n)).toBe(true));
        expect(Object.values(view.discPercentages).reduce((a, b) => a + b, 0)).toBe(100);
      }),
    );
  });

  it('viewFromPoint reads missing extraversion/agreeableness from the point', () => {
    const view = viewFromPoint({ x: -0.5, y: -0.5 }, { openness: 0.6, conscientiousness: 0.6 });
    expect(view.discType).toBe('C');
    expect(view.myersBriggsType).toBe('INTJ');
    expect(view.confidence).toBe(100);
    expect(viewFromPoint({ x: 0, y: 0 }).discPercentages).toEqual({ d: 25, i: 25, s: 25, c: 25 });
    expect(viewFromPoint({ x: 2, y: 0 }).discIntensity).toBe(100);
  });
});
