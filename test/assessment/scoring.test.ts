import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadQuestionnaire, OCTANT_CODES, type ItemScale, type OctantCode } from '../../src/assessment/questionnaire.ts';
import { scoreAnswers, type ScoreOutcome } from '../../src/assessment/scoring.ts';
import { angleToType, pointAngle, pointRadius, traitsToPoint } from '../../src/personality/circle.ts';
import { describePersonality } from '../../src/content/describe.ts';
import { personalityView } from '../../src/personality/views.ts';
import type { TraitEstimate } from '../../src/personality/types.ts';
import { shipped } from '../helpers/content.ts';

const q = loadQuestionnaire();

type Answers = Record<string, number>;

/** Every item answered with the value given for its scale (or `fallback`), whatever its keying. */
function answerByScale(values: Partial<Record<ItemScale, number>>, fallback = 3): Answers {
  const answers: Answers = {};
  for (const item of q.items) answers[item.id] = values[item.scale] ?? fallback;
  return answers;
}

/** One octant at 5, the other seven at 1; openness and conscientiousness neutral. */
function octantPure(code: OctantCode): Answers {
  const values: Partial<Record<ItemScale, number>> = {};
  for (const other of OCTANT_CODES) values[other] = other === code ? 5 : 1;
  return answerByScale(values);
}

function idsOf(scale: ItemScale, keyed?: 'plus' | 'minus'): string[] {
  return q.items.filter((item) => item.scale === scale && (keyed === undefined || item.keyed === keyed)).map((item) => item.id);
}

function expectOk(outcome: ScoreOutcome): Extract<ScoreOutcome, { ok: true }> {
  if (!outcome.ok) throw new Error(`expected a score, got ${outcome.reason}: ${outcome.message}`);
  return outcome;
}

function expectFailure(outcome: ScoreOutcome, reason: string): void {
  expect(outcome.ok).toBe(false);
  if (!outcome.ok) {
    expect(outcome.reason).toBe(reason);
    expect(outcome.message.length).toBeGreaterThan(10);
  }
}

function without(answers: Answers, ids: string[]): Answers {
  const copy = { ...answers };
  for (const id of ids) delete copy[id];
  return copy;
}

/** A varied, plausible answer set: a warm, outgoing, fairly conscientious person. */
function plausible(): Answers {
  return answerByScale({ PA: 3, BC: 2, DE: 2, FG: 2, HI: 3, JK: 4, LM: 5, NO: 4 }, 3);
}

describe('the circle', () => {
  const expected: Record<OctantCode, { angle: number; type: string }> = {
    LM: { angle: 0, type: 'IS' },
    NO: { angle: 45, type: 'I' },
    PA: { angle: 90, type: 'DI' },
    BC: { angle: 135, type: 'D' },
    DE: { angle: 180, type: 'CD' },
    FG: { angle: 225, type: 'C' },
    HI: { angle: 270, type: 'SC' },
    JK: { angle: 315, type: 'S' },
  };

  for (const code of OCTANT_CODES) {
    it(`an answer pattern pure in ${code} lands at ${expected[code].angle}° (${expected[code].type}) with intensity 80`, () => {
      const scored = expectOk(scoreAnswers(q, octantPure(code)));
      expect(pointAngle(scored.point)).toBeCloseTo(expected[code].angle % 360, 6);
      const view = personalityView(scored.estimate);
      expect(view.discType).toBe(expected[code].type);
      expect(angleToType(expected[code].angle)).toBe(expected[code].type);
      // amplitude 1 answer point → tanh(1.1) ≈ 0.80
      expect(view.discIntensity).toBe(80);
    });
  }

  it('dominance is up (y) and warmth is right (x), as on the DISC plane', () => {
    const dominant = expectOk(scoreAnswers(q, octantPure('PA'))).point;
    expect(dominant.y).toBeGreaterThan(0.79);
    expect(Math.abs(dominant.x)).toBeLessThan(1e-9);
    const warm = expectOk(scoreAnswers(q, octantPure('LM'))).point;
    expect(warm.x).toBeGreaterThan(0.79);
    expect(Math.abs(warm.y)).toBeLessThan(1e-9);
  });

  it('a flat profile (all octants alike, traits varied) sits at the centre', () => {
    const answers = answerByScale({ PA: 4, BC: 2, DE: 4, FG: 2, HI: 4, JK: 2, LM: 4, NO: 2 });
    // Opposite octants equal in pairs but alternating: PA/HI 4, BC/JK 2 … the cosine fit is zero.
    const scored = expectOk(scoreAnswers(q, answers));
    expect(pointRadius(scored.point)).toBeLessThan(1e-9);
  });

  it('a general tendency to agree does not move the point (ipsatised octants)', () => {
    // The same profile one answer point higher on every octant.
    const low = answerByScale({ PA: 2, BC: 1, DE: 1, FG: 1, HI: 2, JK: 3, LM: 4, NO: 3 });
    const high = answerByScale({ PA: 3, BC: 2, DE: 2, FG: 2, HI: 3, JK: 4, LM: 5, NO: 4 });
    const a = expectOk(scoreAnswers(q, low)).point;
    const b = expectOk(scoreAnswers(q, high)).point;
    expect(a.x).toBeCloseTo(b.x, 12);
    expect(a.y).toBeCloseTo(b.y, 12);
  });

  it('a strong profile reaches intensity 70–90, the most extreme one 90–99, a mild one stays moderate', () => {
    const extreme = answerByScale({ PA: 4, BC: 3, DE: 2, FG: 1, HI: 2, JK: 3, LM: 4, NO: 5 });
    const extremeView = personalityView(expectOk(scoreAnswers(q, extreme)).estimate);
    expect(extremeView.discIntensity).toBeGreaterThanOrEqual(90);
    expect(extremeView.discIntensity).toBeLessThan(100);
    const strong = answerByScale({ PA: 4, BC: 3, DE: 2, FG: 2, HI: 2, JK: 3, LM: 4, NO: 4 });
    // One point warmer than average and one point less cold: amplitude 0.5 → tanh(0.55) ≈ 0.50.
    const mild = answerByScale({ PA: 3, BC: 3, DE: 2, FG: 3, HI: 3, JK: 3, LM: 4, NO: 3, openness: 2, conscientiousness: 4 });
    const strongView = personalityView(expectOk(scoreAnswers(q, strong)).estimate);
    expect(strongView.discIntensity).toBeGreaterThanOrEqual(70);
    expect(strongView.discIntensity).toBeLessThanOrEqual(90);
    const mildView = personalityView(expectOk(scoreAnswers(q, mild)).estimate);
    expect(mildView.discIntensity).toBe(50);
    expect(mildView.discType).toBe('IS');
  });
});

describe('the estimate', () => {
  it('is an assessment, with E and A that give the measured point back through traitsToPoint', () => {
    const scored = expectOk(scoreAnswers(q, plausible()));
    const { estimate } = scored;
    expect(estimate.source).toBe('assessment');
    expect(estimate.modelVersion).toBe(q.version);
    expect(estimate.wordCount).toBe(0);
    expect(scored.answered).toBe(q.items.length);
    const back = traitsToPoint(estimate.scores);
    expect(back.x).toBeCloseTo(scored.point.x, 12);
    expect(back.y).toBeCloseTo(scored.point.y, 12);
    expect(estimate.confidence).toEqual({ extraversion: 0.9, agreeableness: 0.9, conscientiousness: 0.9, openness: 0.9, neuroticism: 0 });
    expect(estimate.scores.neuroticism).toBe(0);
  });

  it('feeds every existing view: type, intensity, percentages, archetype, MBTI, Enneagram, qualities', () => {
    const estimate: TraitEstimate = expectOk(scoreAnswers(q, plausible())).estimate;
    const { view, content } = describePersonality(shipped.phrases, estimate, 'Ada');
    expect(view.discType).toMatch(/^(IS|Is|I)$/); // warm and outgoing
    expect(view.confidence).toBe(90);
    expect(Object.values(view.discPercentages).reduce((a, b) => a + b, 0)).toBe(100);
    expect(view.archetype.length).toBeGreaterThan(0);
    expect(view.myersBriggsType).toMatch(/^E.F.$/);
    expect(view.enneagramType).toBeGreaterThanOrEqual(1);
    expect(view.enneagramType).toBeLessThanOrEqual(9);
    expect(content).toBeTruthy();
  });

  it('scores reversed (minus-keyed) items the other way round', () => {
    const open: Answers = plausible();
    for (const id of idsOf('openness', 'plus')) open[id] = 5;
    for (const id of idsOf('openness', 'minus')) open[id] = 1;
    for (const id of idsOf('conscientiousness', 'plus')) open[id] = 1;
    for (const id of idsOf('conscientiousness', 'minus')) open[id] = 5;
    const scores = expectOk(scoreAnswers(q, open)).estimate.scores;
    expect(scores.openness).toBe(1);
    expect(scores.conscientiousness).toBe(-1);

    // Agreeing with everything, plus- and minus-keyed alike, is no openness at all.
    const agreeing: Answers = plausible();
    for (const id of idsOf('openness')) agreeing[id] = 5;
    expect(expectOk(scoreAnswers(q, agreeing)).estimate.scores.openness).toBe(0);

    const moderate: Answers = plausible();
    for (const id of idsOf('conscientiousness', 'plus')) moderate[id] = 4;
    for (const id of idsOf('conscientiousness', 'minus')) moderate[id] = 2;
    expect(expectOk(scoreAnswers(q, moderate)).estimate.scores.conscientiousness).toBe(0.5);
  });

  it('is deterministic and ignores the order answers arrive in', () => {
    const answers = plausible();
    const reversed = Object.fromEntries(Object.entries(answers).reverse());
    expect(scoreAnswers(q, answers)).toEqual(scoreAnswers(q, answers));
    expect(scoreAnswers(q, reversed)).toEqual(scoreAnswers(q, answers));
  });
});

describe('gaps', () => {
  it('scores a test with a few gaps, with confidence lowered for the parts that have them', () => {
    const scored = expectOk(scoreAnswers(q, without(plausible(), [idsOf('PA')[0] ?? '', idsOf('openness')[0] ?? ''])));
    expect(scored.answered).toBe(q.items.length - 2);
    expect(scored.estimate.confidence.extraversion).toBeCloseTo(0.9 * (31 / 32), 3);
    expect(scored.estimate.confidence.openness).toBeCloseTo(0.9 * (7 / 8), 3);
    expect(scored.estimate.confidence.conscientiousness).toBe(0.9);
  });

  it('refuses more than 10 % of the items unanswered', () => {
    const five = OCTANT_CODES.slice(0, 5).map((code) => idsOf(code)[0] ?? '');
    expectFailure(scoreAnswers(q, without(plausible(), five)), 'too_many_gaps');
    expectOk(scoreAnswers(q, without(plausible(), five.slice(0, 4))));
    expectFailure(scoreAnswers(q, {}), 'too_many_gaps');
  });

  it('refuses an octant with fewer than 3 of its 4 items', () => {
    expectFailure(scoreAnswers(q, without(plausible(), idsOf('DE').slice(0, 2))), 'too_many_gaps');
  });

  it('refuses openness or conscientiousness with fewer than 6 of 8 items', () => {
    expectFailure(scoreAnswers(q, without(plausible(), idsOf('conscientiousness').slice(0, 3))), 'too_many_gaps');
  });

  it('treats an explicitly undefined answer as a gap', () => {
    const answers: Record<string, number | undefined> = { ...plausible(), 'ipc-01': undefined };
    expect(expectOk(scoreAnswers(q, answers as Answers)).answered).toBe(q.items.length - 1);
  });
});

describe('straight-lining', () => {
  it('refuses the same answer to everything', () => {
    for (const v of [1, 3, 5]) expectFailure(scoreAnswers(q, answerByScale({}, v)), 'straight_lined');
  });

  it('refuses nearly the same answer to everything (90 % or more)', () => {
    const answers = answerByScale({}, 4);
    const ids = q.items.map((item) => item.id);
    for (const id of ids.slice(0, 4)) answers[id] = 2;
    expectFailure(scoreAnswers(q, answers), 'straight_lined');
  });

  it('refuses a circle answered with one value even when the other items vary', () => {
    const answers = answerByScale({ openness: 1, conscientiousness: 5 }, 4);
    expectFailure(scoreAnswers(q, answers), 'straight_lined');
  });
});

describe('tampered answers', () => {
  it('refuses unknown item ids, naming them', () => {
    const outcome = scoreAnswers(q, { ...plausible(), 'ipc-99': 3 });
    expectFailure(outcome, 'unknown_item');
    if (!outcome.ok) expect(outcome.message).toContain('"ipc-99"');
    expectFailure(scoreAnswers(q, { ...plausible(), __proto__x: 3 }), 'unknown_item');
  });

  it('bounds a forged id in the message', () => {
    const outcome = scoreAnswers(q, { ...plausible(), ['x'.repeat(10_000)]: 3 });
    expectFailure(outcome, 'unknown_item');
    if (!outcome.ok) expect(outcome.message.length).toBeLessThan(120);
  });

  it('refuses values outside 1..5, non-integers and non-numbers', () => {
    for (const bad of [0, 6, -1, 2.5, Number.NaN, Number.POSITIVE_INFINITY, '3' as unknown as number, null as unknown as number]) {
      expectFailure(scoreAnswers(q, { ...plausible(), 'ipc-05': bad }), 'out_of_range');
    }
  });
});

describe('any valid answer set', () => {
  const answerSet = fc
    .record({
      values: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: q.items.length, maxLength: q.items.length }),
      gaps: fc.uniqueArray(fc.integer({ min: 0, max: q.items.length - 1 }), { maxLength: 4 }),
    })
    .map(({ values, gaps }) => {
      const answers: Answers = {};
      q.items.forEach((item, k) => {
        if (!gaps.includes(k)) answers[item.id] = values[k] ?? 3;
      });
      return answers;
    });

  it('yields a point in the unit disc and traits in [-1, 1], or a reason', () => {
    fc.assert(
      fc.property(answerSet, (answers) => {
        const outcome = scoreAnswers(q, answers);
        if (!outcome.ok) {
          expect(['too_many_gaps', 'straight_lined']).toContain(outcome.reason);
          return;
        }
        expect(Math.hypot(outcome.point.x, outcome.point.y)).toBeLessThan(1);
        for (const value of Object.values(outcome.estimate.scores)) {
          expect(Number.isFinite(value)).toBe(true);
          expect(Math.abs(value)).toBeLessThanOrEqual(1);
        }
        const back = traitsToPoint(outcome.estimate.scores);
        expect(back.x).toBeCloseTo(outcome.point.x, 12);
        expect(back.y).toBeCloseTo(outcome.point.y, 12);
      }),
      { numRuns: 500 },
    );
  });
});
