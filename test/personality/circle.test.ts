import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DISC_AXES,
  DISC_TYPES,
  angleToType,
  angularDistance,
  clipToUnitDisc,
  discFractions,
  discIntensity,
  discPercentages,
  percentagesToPoint,
  pointAngle,
  pointRadius,
  pointToTraits,
  pointToType,
  traitsToPoint,
  typeCentre,
  typeIndex,
  type DiscType,
} from '../../src/personality/circle.ts';

const anyDouble = fc.double({ noNaN: false });
const anyAngle = fc.double({ min: -1e6, max: 1e6, noNaN: true });
const unitScore = fc.double({ min: -1, max: 1, noNaN: true });
const anyPoint = fc.record({ x: anyDouble, y: anyDouble });
const discPoint = fc
  .record({ r: fc.double({ min: 0, max: 1, noNaN: true }), deg: fc.double({ min: 0, max: 360, noNaN: true }) })
  .map(({ r, deg }) => ({ x: r * Math.cos((deg * Math.PI) / 180), y: r * Math.sin((deg * Math.PI) / 180) }));
const EPS = 1e-9;

function at(deg: number, r = 1): { x: number; y: number } {
  return { x: r * Math.cos((deg * Math.PI) / 180), y: r * Math.sin((deg * Math.PI) / 180) };
}

describe('DISC type table', () => {
  it('has 16 distinct types 22.5° apart in counter-clockwise order from IS at 0°', () => {
    expect(DISC_TYPES).toHaveLength(16);
    expect(new Set(DISC_TYPES.map((t) => t.code)).size).toBe(16);
    DISC_TYPES.forEach((t, k) => expect(t.angle).toBe(k * 22.5));
    expect(DISC_TYPES.map((t) => t.code).join(' ')).toBe('IS Is I Id DI Di D Dc CD Cd C Cs SC Sc S Si');
    expect(DISC_AXES).toEqual({ d: 135, i: 45, s: 315, c: 225 });
  });

  it('maps each sector centre to its own type and the main axes to D, I, S, C', () => {
    for (const { code, angle } of DISC_TYPES) {
      expect(angleToType(angle)).toBe(code);
      expect(typeCentre(code)).toBe(angle);
    }
    expect([135, 45, 315, 225].map(angleToType)).toEqual(['D', 'I', 'S', 'C']);
  });

  it('assigns sector boundaries to the counter-clockwise neighbour and wraps any real angle', () => {
    expect(angleToType(11.25)).toBe('Is');
    expect(angleToType(11.2499)).toBe('IS');
    expect(angleToType(348.75)).toBe('IS');
    expect(angleToType(-11.25)).toBe('IS');
    expect(angleToType(-1e-17)).toBe('IS');
    expect(angleToType(360 + 135)).toBe('D');
    expect(angleToType(-225)).toBe('D');
    expect(angleToType(1e300)).toBe(angleToType(1e300 % 360));
    expect(angleToType(Number.NaN)).toBe('IS');
    expect(angleToType(Number.POSITIVE_INFINITY)).toBe('IS');
  });
});

describe('angles and types (properties)', () => {
  it('every angle maps to one type whose centre is within 11.25°', () => {
    fc.assert(
      fc.property(anyAngle, (deg) => {
        const type = angleToType(deg);
        expect(typeIndex(type)).toBeGreaterThanOrEqual(0);
        expect(angularDistance(typeCentre(type), deg)).toBeLessThanOrEqual(11.25 + EPS);
      }),
      { numRuns: 2000 },
    );
  });

  it('walking around the circle in small steps only moves to a neighbouring type', () => {
    fc.assert(
      fc.property(fc.double({ min: -720, max: 720, noNaN: true }), fc.double({ min: 0.01, max: 5, noNaN: true }), (start, step) => {
        const jumps: number[] = [];
        let previous = typeIndex(angleToType(start));
        for (let deg = start; deg <= start + 360; deg += step) {
          const current = typeIndex(angleToType(deg));
          const hop = (current - previous + 16) % 16;
          if (hop > 1) jumps.push(deg);
          previous = current;
        }
        expect(jumps).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('visits every type exactly once per turn, in table order', () => {
    const seen: DiscType[] = [];
    for (let deg = -11.25; deg < 348.75; deg += 0.5) {
      const type = angleToType(deg);
      if (seen[seen.length - 1] !== type) seen.push(type);
    }
    expect(seen).toEqual(DISC_TYPES.map((t) => t.code));
  });

  it('angularDistance is symmetric and within 0..180', () => {
    fc.assert(
      fc.property(anyAngle, anyAngle, (a, b) => {
        const d = angularDistance(a, b);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(180);
        expect(Math.abs(d - angularDistance(b, a))).toBeLessThan(1e-6);
      }),
    );
    expect(angularDistance(350, 10)).toBeCloseTo(20, 12);
    expect(angularDistance(0, 180)).toBe(180);
  });
});

describe('points', () => {
  it('never produces NaN, even at the centre, tiny radii and junk input', () => {
    const junk = [
      { x: 0, y: 0 },
      { x: -0, y: -0 },
      { x: 1e-300, y: -1e-300 },
      { x: Number.MIN_VALUE, y: 0 },
      { x: Number.NaN, y: 0.5 },
      { x: Number.POSITIVE_INFINITY, y: Number.NEGATIVE_INFINITY },
      { x: 1e308, y: 1e308 },
    ];
    for (const p of junk) {
      const values = [pointAngle(p), pointRadius(p), discIntensity(p), ...Object.values(discPercentages(p))];
      values.forEach((v) => expect(Number.isNaN(v)).toBe(false));
      expect(typeIndex(pointToType(p))).toBeGreaterThanOrEqual(0);
    }
    expect(pointAngle({ x: 0, y: 0 })).toBe(0);
    expect(pointAngle({ x: -0, y: -0 })).toBe(0);
    expect(discPercentages({ x: 0, y: 0 })).toEqual({ d: 25, i: 25, s: 25, c: 25 });
    fc.assert(
      fc.property(anyPoint, (p) => {
        const angle = pointAngle(p);
        expect(angle).toBeGreaterThanOrEqual(0);
        expect(angle).toBeLessThan(360);
        expect(Number.isFinite(pointRadius(p))).toBe(true);
        const clipped = clipToUnitDisc(p);
        expect(Number.isFinite(clipped.x) && Number.isFinite(clipped.y)).toBe(true);
      }),
    );
  });

  it('clipping keeps r ≤ 1 and leaves points inside the disc untouched', () => {
    fc.assert(
      fc.property(anyPoint, (p) => {
        expect(Math.hypot(clipToUnitDisc(p).x, clipToUnitDisc(p).y)).toBeLessThanOrEqual(1 + EPS);
        expect(pointRadius(p)).toBeLessThanOrEqual(1);
      }),
    );
    fc.assert(
      fc.property(discPoint, (p) => {
        expect(clipToUnitDisc(p)).toEqual(p);
      }),
    );
    expect(clipToUnitDisc({ x: 3, y: 4 })).toEqual({ x: 0.6, y: 0.8 });
  });

  it('intensity is round(100·r)', () => {
    expect(discIntensity(at(30, 0.424))).toBe(42);
    expect(discIntensity({ x: 5, y: 0 })).toBe(100);
    expect(discIntensity({ x: 0, y: 0 })).toBe(0);
  });
});

describe('percentages', () => {
  it('exact fractions follow p_k = (1 + r·cos(θ − θ_k))/4', () => {
    const f = discFractions(at(135, 0.8));
    expect(f.d).toBeCloseTo(0.45, 12);
    expect(f.c).toBeCloseTo(0.25, 12);
    expect(f.s).toBeCloseTo(0.05, 12);
    expect(discPercentages(at(135, 0.8))).toEqual({ d: 45, i: 25, s: 5, c: 25 });
    expect(discPercentages(at(45, 1))).toEqual({ d: 25, i: 50, s: 25, c: 0 });
  });

  it('integers sum to exactly 100 and each is within one point of its exact share', () => {
    fc.assert(
      fc.property(anyPoint, (p) => {
        const pct = discPercentages(p);
        const exact = discFractions(p);
        expect(pct.d + pct.i + pct.s + pct.c).toBe(100);
        for (const key of ['d', 'i', 's', 'c'] as const) {
          expect(Number.isInteger(pct[key])).toBe(true);
          expect(Math.abs(pct[key] - 100 * exact[key])).toBeLessThan(1);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('exact fractions give the point back exactly; rounded integers within 0.03', () => {
    fc.assert(
      fc.property(discPoint, (p) => {
        const back = percentagesToPoint(discFractions(p));
        expect(Math.abs(back.x - p.x)).toBeLessThan(1e-9);
        expect(Math.abs(back.y - p.y)).toBeLessThan(1e-9);
        const approx = percentagesToPoint(discPercentages(p));
        // Worst case is 2·√2·0.01 ≈ 0.0283 per axis (two shares off by almost a point each).
        expect(Math.abs(approx.x - p.x)).toBeLessThanOrEqual(0.03);
        expect(Math.abs(approx.y - p.y)).toBeLessThanOrEqual(0.03);
      }),
      { numRuns: 3000 },
    );
  });

  it('inverse tolerates junk shares', () => {
    expect(percentagesToPoint({ d: 0, i: 0, s: 0, c: 0 })).toEqual({ x: 0, y: 0 });
    expect(percentagesToPoint({ d: Number.NaN, i: -5, s: 0, c: 0 })).toEqual({ x: 0, y: 0 });
    const p = percentagesToPoint({ d: 0, i: 100, s: 0, c: 0 });
    expect(Math.hypot(p.x, p.y)).toBeLessThanOrEqual(1);
  });
});

describe('traits to the plane', () => {
  const strong = fc.double({ min: 0.5, max: 1, noNaN: true });
  const family = (e: number, a: number): string => pointToType(traitsToPoint({ extraversion: e, agreeableness: a })).charAt(0);

  it('puts E+A+ in I, E+A− in D, E−A− in C and E−A+ in S territory', () => {
    fc.assert(
      fc.property(strong, strong, (e, a) => {
        expect(family(e, a)).toBe('I');
        expect(family(e, -a)).toBe('D');
        expect(family(-e, -a)).toBe('C');
        expect(family(-e, a)).toBe('S');
      }),
    );
  });

  it('follows E·u(67.5°) + A·u(−22.5°) and clips to the unit disc', () => {
    expect(pointAngle(traitsToPoint({ extraversion: 1, agreeableness: 0 }))).toBeCloseTo(67.5, 10);
    expect(pointAngle(traitsToPoint({ extraversion: 0, agreeableness: 1 }))).toBeCloseTo(337.5, 10);
    const both = traitsToPoint({ extraversion: 1, agreeableness: 1 });
    expect(pointRadius(both)).toBeCloseTo(1, 12);
    expect(pointAngle(both)).toBeCloseTo(22.5, 10);
    expect(traitsToPoint({ extraversion: Number.NaN, agreeableness: Number.NaN })).toEqual({ x: 0, y: 0 });
    fc.assert(
      fc.property(unitScore, unitScore, (e, a) => {
        const p = traitsToPoint({ extraversion: e, agreeableness: a });
        expect(Math.hypot(p.x, p.y)).toBeLessThanOrEqual(1 + EPS);
      }),
    );
  });

  it('pointToTraits inverts traitsToPoint inside the disc', () => {
    fc.assert(
      fc.property(fc.double({ min: -0.7, max: 0.7, noNaN: true }), fc.double({ min: -0.7, max: 0.7, noNaN: true }), (e, a) => {
        const back = pointToTraits(traitsToPoint({ extraversion: e, agreeableness: a }));
        expect(back.extraversion).toBeCloseTo(e, 9);
        expect(back.agreeableness).toBeCloseTo(a, 9);
      }),
    );
  });
});
