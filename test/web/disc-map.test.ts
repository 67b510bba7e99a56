import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DISC_TYPES } from '../../src/personality/circle.ts';
import { discMapFonts, discMapKey, parseDiscMapKey, renderDiscMapPng, renderDiscMapSvg } from '../../src/pages/disc-map.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function dotOf(svg: string): { cx: number; cy: number } {
  const match = /<circle id="person-dot" cx="([-\d.]+)" cy="([-\d.]+)"/.exec(svg);
  if (match === null) throw new Error('no dot in the SVG');
  return { cx: Number(match[1]), cy: Number(match[2]) };
}

describe('renderDiscMapSvg', () => {
  it('draws the dot at the exact point (centre 200,200; radius 150; y up)', () => {
    expect(dotOf(renderDiscMapSvg({ x: 0.423, y: -0.13 }))).toEqual({ cx: 263.45, cy: 219.5 });
    expect(dotOf(renderDiscMapSvg({ x: 0, y: 0 }))).toEqual({ cx: 200, cy: 200 });
    expect(dotOf(renderDiscMapSvg({ x: -1, y: 0 }))).toEqual({ cx: 50, cy: 200 });
    expect(dotOf(renderDiscMapSvg({ x: 0, y: 1 }))).toEqual({ cx: 200, cy: 50 });
    // Outside the disc is clipped onto the rim.
    expect(dotOf(renderDiscMapSvg({ x: 0, y: -4 }))).toEqual({ cx: 200, cy: 350 });
  });

  it('labels all 16 sectors and the axes', () => {
    const svg = renderDiscMapSvg({ x: 0.2, y: 0.1 });
    const labels = [...svg.matchAll(/<text class="type-label"[^>]*>([^<]+)<\/text>/g)].map((m) => m[1]);
    expect(labels).toEqual(DISC_TYPES.map((t) => t.code));
    expect(svg.match(/<path class="sector"/g)).toHaveLength(16);
    for (const hint of ['ACTIVE', 'REFLECTIVE', 'QUESTIONING', 'ACCEPTING']) expect(svg).toContain(`>${hint}</text>`);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400"')).toBe(true);
  });

  it('tints the four main quadrants distinctly', () => {
    const svg = renderDiscMapSvg({ x: 0, y: 0 });
    const fillOf = (code: string): string | undefined => new RegExp(`data-type="${code}" d="[^"]+" fill="(#[0-9a-f]{6})"`).exec(svg)?.[1];
    const main = ['D', 'I', 'S', 'C'].map(fillOf);
    expect(new Set(main).size).toBe(4);
    expect(fillOf('Di')).not.toBe(fillOf('D'));
  });

  it('escapes the label and is deterministic', () => {
    const svg = renderDiscMapSvg({ x: 0.1, y: 0.1 }, { label: '<script>alert("x")</script> & \'Bo\'' });
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;alert(&quot;x&quot;)');
    expect(svg).toContain('&amp; &#39;Bo&#39;');
    expect(renderDiscMapSvg({ x: 0.1, y: 0.1 }, { label: 'Ann' })).toBe(renderDiscMapSvg({ x: 0.1, y: 0.1 }, { label: 'Ann' }));
  });

  it('never emits NaN', () => {
    fc.assert(
      fc.property(fc.double(), fc.double(), (x, y) => {
        expect(renderDiscMapSvg({ x, y })).not.toMatch(/NaN|Infinity/);
      }),
    );
  });
});

describe('renderDiscMapPng', () => {
  const svg = renderDiscMapSvg({ x: 0.3, y: 0.4 }, { label: 'Ada' });

  it('produces a PNG', () => {
    const png = renderDiscMapPng(svg);
    expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    // IHDR width/height: 800×800 by default (2× the viewBox).
    expect(png.readUInt32BE(16)).toBe(800);
    expect(png.readUInt32BE(20)).toBe(800);
  });

  it.skipIf(discMapFonts().files.length === 0)('renders the text when a font is available', () => {
    const withoutText = svg.replace(/<text[^>]*>[^<]*<\/text>/g, '');
    const a = renderDiscMapPng(svg, 200);
    const b = renderDiscMapPng(withoutText, 200);
    expect(a.equals(b)).toBe(false);
  });
});

describe('disc map keys', () => {
  it('formats three decimals and parses back', () => {
    expect(discMapKey({ x: 0.4234, y: -0.1304 })).toBe('0.423_-0.130');
    expect(parseDiscMapKey('0.423_-0.130')).toEqual({ x: 0.423, y: -0.13 });
    expect(discMapKey({ x: -0.0001, y: 0 })).toBe('0.000_0.000');
    expect(discMapKey({ x: 3, y: 4 })).toBe('0.600_0.800');
  });

  it('clamps to the unit disc and rejects junk', () => {
    expect(parseDiscMapKey('3_4')).toEqual({ x: 0.6, y: 0.8 });
    for (const junk of ['', '_', '1', '0.1_0.2_0.3', 'abc_0.1', '0.1_1e3', 'NaN_0', '0x1_0', ' 0.1_0.2', '0.1_0.2.svg', '-_1', '0.1_' + '1'.repeat(40)]) {
      expect(parseDiscMapKey(junk)).toBeNull();
    }
  });

  it('round-trips: key → point → key is stable and stays in the disc', () => {
    fc.assert(
      fc.property(fc.double({ min: -2, max: 2, noNaN: true }), fc.double({ min: -2, max: 2, noNaN: true }), (x, y) => {
        const key = discMapKey({ x, y });
        const point = parseDiscMapKey(key);
        expect(point).not.toBeNull();
        if (point === null) return;
        expect(Math.hypot(point.x, point.y)).toBeLessThanOrEqual(1);
        expect(discMapKey(point)).toBe(key);
        const r = Math.hypot(x, y);
        const clipped = r > 1 ? { x: x / r, y: y / r } : { x, y };
        expect(Math.abs(point.x - clipped.x)).toBeLessThanOrEqual(0.001);
        expect(Math.abs(point.y - clipped.y)).toBeLessThanOrEqual(0.001);
      }),
      { numRuns: 2000 },
    );
  });
});
