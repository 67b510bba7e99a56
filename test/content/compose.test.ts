import { describe, expect, it } from 'vitest';
import { composeProfileContent, selectionLimits, selectProfilePhrases, toInlineHtml } from '../../src/content/compose-profile.ts';
import { loadPhraseLibrary, SECTIONS, type Phrase, type Section } from '../../src/content/phrases.ts';
import { intensityClass, intensityLimits, isBlendPhrase, isCentrePhrase, positionOf } from '../../src/content/rank.ts';
import { DISC_TYPES } from '../../src/personality/circle.ts';
import type { DiscPoint } from '../../src/personality/types.ts';

const library = loadPhraseLibrary();
const INTENSITIES = [15, 50, 90] as const;
/** Sections whose file has landed; the others are authored in parallel and checked once present. */
const presentSections = SECTIONS.filter((s) => library.sections[s].length > 0);

function pointAt(angle: number, intensity: number): DiscPoint {
  const r = intensity / 100;
  return { x: r * Math.cos((angle * Math.PI) / 180), y: r * Math.sin((angle * Math.PI) / 180) };
}

function allPhrases(content: ReturnType<typeof composeProfileContent>): string[] {
  return SECTIONS.flatMap((s) => content[s]);
}

const cases = DISC_TYPES.flatMap((t) => INTENSITIES.map((intensity) => ({ code: t.code, angle: t.angle, intensity })));

describe('composeProfileContent at every type centre and intensity', () => {
  it.each(cases)('$code at intensity $intensity', ({ angle, intensity }) => {
    const point = pointAt(angle, intensity);
    const content = composeProfileContent({ point, firstName: 'Maya' });

    for (const section of presentSections) {
      expect(content[section].length, section).toBeGreaterThanOrEqual(section === 'qualities' ? 4 : 3);
    }
    const phrases = allPhrases(content);
    expect(new Set(phrases).size).toBe(phrases.length);
    for (const text of [...phrases, content.summary, ...Object.values(content.section_overviews)]) {
      expect(text).not.toMatch(/[{}]/);
    }
    for (const text of phrases) expect(text).not.toContain('**');

    // Wherever the template names the person, the name is there.
    const picked = selectProfilePhrases(positionOf(point), library);
    for (const section of presentSections) {
      picked[section].forEach((phrase, i) => {
        if (phrase.text.includes('{first}')) expect(content[section][i]).toContain('Maya');
      });
    }
    expect(content.overview.some((t) => t.includes('Maya'))).toBe(true);
    expect(content.summary).toContain('Maya');
  });
});

describe('blends and strong types', () => {
  it('leads the overview of a person near the centre with a blend phrase', () => {
    for (const { angle } of DISC_TYPES) {
      const overview = selectProfilePhrases(positionOf(pointAt(angle, 15)), library).overview;
      expect(overview[0] !== undefined && isBlendPhrase(overview[0])).toBe(true);
    }
  });

  it('opens neighbouring blends differently: the centre phrase of their own lean leads, and says "blend" once', () => {
    const openings = new Set<string>();
    for (const { angle } of DISC_TYPES) {
      for (const intensity of [5, 18, 29]) {
        const overview = composeProfileContent({ point: pointAt(angle, intensity), confidence: 30 }).overview;
        const picked = selectProfilePhrases({ ...positionOf(pointAt(angle, intensity)), facets: { level: 'moderate', traits: {}, role: null } }, library).overview;
        expect(picked.filter(isCentrePhrase), `${angle}° at ${intensity}`).toHaveLength(1);
        if (intensity === 18) openings.add(overview[0] ?? '');
      }
    }
    // One opening per type near the centre, not one for everybody.
    expect(openings.size).toBe(DISC_TYPES.length);
    // Thin evidence still opens by saying the picture is tentative, not with a lean.
    expect(composeProfileContent({ point: pointAt(160, 18), confidence: 10 }).overview[0]).toMatch(/tentative/);
  });

  it('never uses blend phrases for a pronounced type', () => {
    for (const { angle } of DISC_TYPES) {
      const picked = selectProfilePhrases(positionOf(pointAt(angle, 90)), library);
      for (const section of SECTIONS) expect(picked[section].filter(isBlendPhrase)).toEqual([]);
    }
  });

  it('handles the exact centre and out-of-range input', () => {
    for (const point of [{ x: 0, y: 0 }, { x: 5, y: -5 }, { x: Number.NaN, y: 1 }]) {
      const content = composeProfileContent({ point, firstName: 'Maya' });
      expect(content.overview.length).toBeGreaterThanOrEqual(3);
    }
  });
});

describe('names', () => {
  const point = pointAt(135, 70);

  it('falls back to a neutral phrase without a name', () => {
    for (const firstName of [undefined, null, '', '   ', '***']) {
      const content = composeProfileContent({ point, firstName });
      const picked = selectProfilePhrases(positionOf(point), library);
      const text = allPhrases(content).join('\n');
      expect(text).not.toContain('{first}');
      picked.overview.forEach((phrase, i) => {
        if (phrase.text.startsWith('{first}')) expect(content.overview[i]).toMatch(/^This person/);
      });
      expect(text).not.toMatch(/[a-z,;:] This person/);
    }
  });

  it('keeps names with markup characters inert in the HTML form', () => {
    const firstName = '<img src=x onerror="alert(\'1\')">&';
    const content = composeProfileContent({ point, firstName });
    const html = toInlineHtml(content.summary);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;');
    // Plain output carries the name as written; escaping is the HTML form's job.
    expect(content.overview.some((t) => t.includes(firstName))).toBe(true);
  });

  it('cannot open a bold run from a name', () => {
    const content = composeProfileContent({ point, firstName: 'Jo**<b>' });
    const html = toInlineHtml(content.summary);
    expect(html).toContain('Jo&lt;b&gt;');
    expect(html.match(/<b>/g)?.length ?? 0).toBe(html.match(/<\/b>/g)?.length ?? 0);
  });

  it('turns markers into bold tags only after escaping', () => {
    expect(toInlineHtml('A **bold** & <i>x</i>')).toBe('A <b>bold</b> &amp; &lt;i&gt;x&lt;/i&gt;');
    expect(toInlineHtml('stray ** marker')).toBe('stray  marker');
  });
});

describe('determinism and locality', () => {
  const mine: Section[] = ['overview', 'behavior', 'motivation', 'drainer', 'communication', 'meeting', 'selling'];
  const ids = (angle: number, intensity: number): Set<string> => {
    const picked = selectProfilePhrases(positionOf(pointAt(angle, intensity)), library);
    return new Set(mine.flatMap((s) => picked[s].map((p) => p.id)));
  };
  const overlap = (a: Set<string>, b: Set<string>): number => [...a].filter((id) => b.has(id)).length / a.size;

  it('gives the same content for the same point', () => {
    const input = { point: pointAt(200, 64), firstName: 'Maya' };
    expect(composeProfileContent(input)).toEqual(composeProfileContent(input));
  });

  it('gives mostly the same content to neighbouring angles and different content to opposite ones', () => {
    for (const { angle } of DISC_TYPES) {
      const here = ids(angle, 70);
      // At a centre the neighbouring sectors tie, so a 5° nudge may swap which of them fill
      // the last places; the sector's own phrases stay.
      expect(overlap(here, ids(angle + 5, 70))).toBeGreaterThanOrEqual(0.6);
      expect(overlap(here, ids(angle + 180, 70))).toBeLessThanOrEqual(0.1);
    }
  });

  it('honours an explicit count', () => {
    const content = composeProfileContent({ point: pointAt(45, 60), count: 3 });
    for (const section of mine) expect(content[section]).toHaveLength(3);
  });
});

describe('selection cache key (intensity classes)', () => {
  const phrases = [...SECTIONS.flatMap((s) => library.sections[s]), ...library.sectionOverviews];
  const limits = selectionLimits(library);
  const ids = (angle: number, intensity: number) =>
    Object.values(selectProfilePhrases({ angle, intensity }, library)).map((picked) => picked.map((p) => p.id));

  it('gives intensities of one class exactly the same choice, at every 7.5 degrees', () => {
    for (let angle = 0; angle < 360; angle += 7.5) {
      for (let intensity = 50; intensity < 100; intensity++) {
        const next = intensity + 1;
        if (intensityClass(intensity, limits) === intensityClass(next, limits)) expect(ids(angle, next), `${angle}° ${intensity}/${next}`).toEqual(ids(angle, intensity));
      }
    }
    // Thousands of uncached selections: slow on a loaded machine, and correct however slow.
  }, 180_000);

  it('keeps every intensity below the widening limit apart, and splits where a phrase limit falls', () => {
    const below = Array.from({ length: 50 }, (_, i) => intensityClass(i, limits));
    expect(new Set(below).size).toBe(50);
    expect(limits.length).toBeGreaterThan(0);
    for (const limit of limits) expect(intensityClass(limit - 1, limits)).not.toBe(intensityClass(limit, limits));
  });

  it('places limits that are not whole numbers where whole intensities change', () => {
    const phrase = (minIntensity: number | undefined, maxIntensity: number | undefined) => ({ ...phrases[0], id: 'x', minIntensity, maxIntensity }) as Phrase;
    const limits = intensityLimits([phrase(undefined, 70.5), phrase(80.2, undefined)]);
    expect(limits).toEqual([71, 81]);
    expect(intensityClass(70, limits)).not.toBe(intensityClass(71, limits));
    expect(intensityClass(80, limits)).not.toBe(intensityClass(81, limits));
  });
});
