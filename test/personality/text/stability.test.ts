import { describe, expect, it } from 'vitest';
import { traitsToPoint } from '../../../src/personality/circle.ts';
import { empiricalCdf, standing, standingForLength } from '../../../src/personality/text/standing.ts';
import { agreement, firstWords, maxShareRatio, repunctuate, sentencesOf, splitHalves, typeShares, typeSteps, withOneSentenceRemoved } from '../../../training/stability.ts';

const point = (angle: number, radius = 0.8) => ({ x: radius * Math.cos((angle * Math.PI) / 180), y: radius * Math.sin((angle * Math.PI) / 180) });

describe('stability figures', () => {
  it('counts steps between types around the circle, both ways', () => {
    expect(typeSteps('D', 'D')).toBe(0);
    expect(typeSteps('D', 'Dc')).toBe(1);
    expect(typeSteps('IS', 'Si')).toBe(1);
    expect(typeSteps('I', 'C')).toBe(8);
    expect(typeSteps('Is', 'Sc')).toBe(4);
  });

  it('scores agreement of pairs: same type, within one step, median angle', () => {
    const pairs = [
      [point(135), point(137)], // D, D
      [point(135), point(157)], // D, Dc: one step
      [point(45), point(225)], // I, C: opposite
      [point(0), point(340)], // IS, Si: one step across 0°
    ] as const;
    const figures = agreement(pairs);
    expect(figures.pairs).toBe(4);
    expect(figures.sameType).toBe(0.25);
    expect(figures.withinOneStep).toBe(0.75);
    expect(figures.medianAngle).toBeCloseTo((20 + 22) / 2, 6);
  });

  it('finds the type that short texts over-use, with add-one smoothing', () => {
    const full = Array.from({ length: 160 }, (_, i) => point(i * 2.25 + 1));
    expect(Object.values(typeShares(full)).every((share) => Math.abs(share - 1 / 16) < 1e-9)).toBe(true);
    expect(maxShareRatio(full, full).ratio).toBeCloseTo(1, 9);
    const cornered = [...full.slice(0, 80), ...Array.from({ length: 80 }, () => point(112.5))];
    const worst = maxShareRatio(cornered, full);
    expect(worst.type).toBe('Di');
    // Di: the 80 cornered points plus its own 10 among the first half (0–180°), against 10 at full length.
    expect(worst.ratio).toBeCloseTo((90 + 1) / (10 + 1), 9);
  });

  it('makes the edited versions of a text', () => {
    const text = 'I went out. We had fun! Did you come? It was late… Then home.\nThe end';
    expect(sentencesOf(text).map((s) => s.trim())).toEqual(['I went out.', 'We had fun!', 'Did you come?', 'It was late…', 'Then home.', 'The end']);
    const [first, second] = splitHalves(text);
    expect(`${first} ${second}`.split(/\s+/).length).toBe(text.split(/\s+/).length);
    expect(first).toBe('I went out. We had fun! Did you come?');
    const removed = withOneSentenceRemoved(text, 3, 7);
    expect(removed).toHaveLength(3);
    for (const version of removed) expect(sentencesOf(version)).toHaveLength(5);
    expect(withOneSentenceRemoved(text, 3, 7)).toEqual(removed);
    expect(withOneSentenceRemoved('Only one sentence here', 3, 1)).toEqual([]);
    expect(repunctuate('Well, I think so! Really? "Yes" (maybe) — don\'t…')).toBe('Well I think so. Really. Yes maybe don\'t.');
    expect(firstWords('  one two three four ', 2)).toBe('one two');
  });
});

describe('length-aware standing', () => {
  const full = { words: 600, quantiles: [-2, -1, 0, 1, 2], atThreshold: 0.5 };
  // Cut to 50 words every text's value is shifted down by one: the median short text sits at -1.
  const levels = [{ words: 50, quantiles: [-3, -2, -1, 0, 1] }];

  it('centres a short text on texts of its own length, not on the full-length population', () => {
    expect(standingForLength(levels, full, -1, 50)).toBeCloseTo(0, 9);
    expect(standingForLength(levels, full, -1, 30)).toBeCloseTo(0, 9);
    expect(standing(full.quantiles, full.atThreshold, -1)).toBeCloseTo(-0.5, 9);
    // Without levels (a model before v2) it is the full-length standing.
    expect(standingForLength([], full, -1, 50)).toBeCloseTo(-0.5, 9);
  });

  it('uses the full-length standing from the typical length on, and interpolates between', () => {
    expect(standingForLength(levels, full, 1, 600)).toBe(standing(full.quantiles, full.atThreshold, 1));
    expect(standingForLength(levels, full, 1, 2000)).toBe(standing(full.quantiles, full.atThreshold, 1));
    const short = 2 * empiricalCdf(levels[0]?.quantiles ?? [], 1) - 1;
    const long = standing(full.quantiles, full.atThreshold, 1);
    expect(standingForLength(levels, full, 1, 325)).toBeCloseTo((short + long) / 2, 9);
  });

  it('moves both traits alike, so a point short of words keeps a type from its own population', () => {
    const e = standingForLength(levels, full, -1, 50);
    const a = standingForLength(levels, full, -1, 50);
    expect(traitsToPoint({ extraversion: e, agreeableness: a })).toEqual({ x: 0, y: 0 });
  });
});
