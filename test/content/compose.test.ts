import { describe, expect, it } from 'vitest';
import { isBlendPhrase, isCentrePhrase, isEmphatic, selectionPoint } from '../../src/content/candidates.ts';
import { cachedSelection, composeProfileContent, selectProfile, toInlineHtml } from '../../src/content/compose-profile.ts';
import { HEDGE } from '../../src/content/hedge.ts';
import { SECTIONS, type Section } from '../../src/content/phrases.ts';
import { strengthClass, strengthLimits } from '../../src/content/ranking.ts';
import { readingFrom } from '../../src/content/reading.ts';
import { hedge, STATEMENT_SECTIONS, wordStatements } from '../../src/content/wording.ts';
import { DISC_TYPES } from '../../src/personality/circle.ts';
import { shipped } from '../helpers/content.ts';

const library = shipped.phrases;
const STRENGTHS = [15, 50, 90] as const;
/** Confidence of a thin, a moderate and a strong reading. */
const EVIDENCE = [8, 20, 90] as const;

const cases = DISC_TYPES.flatMap((t) => STRENGTHS.flatMap((strength) => EVIDENCE.map((confidence) => ({ code: t.code, angle: t.angle, strength, confidence }))));

function allSentences(content: ReturnType<typeof composeProfileContent>): string[] {
  return SECTIONS.flatMap((s) => content[s]);
}

describe('composeProfileContent for every type, strength and level of evidence', () => {
  it.each(cases)('$code at strength $strength, confidence $confidence', ({ angle, strength, confidence }) => {
    const reading = readingFrom({ angle, strength, confidence });
    const content = composeProfileContent({ reading, firstName: 'Maya' }, shipped.phrases);
    for (const section of SECTIONS) expect(content[section].length, section).toBeGreaterThanOrEqual(section === 'qualities' ? 4 : 3);
    const sentences = allSentences(content);
    expect(new Set(sentences).size).toBe(sentences.length);
    for (const text of [...sentences, content.summary, ...Object.values(content.sectionOverviews)]) expect(text).not.toMatch(/[{}]/);
    for (const text of sentences) expect(text).not.toContain('**');
    // Wherever the template names the person, the name is there.
    const { picked } = selectProfile(reading, library);
    for (const section of SECTIONS) {
      picked[section].forEach((phrase, i) => {
        if (phrase.text.includes('{first}')) expect(content[section][i]).toContain('Maya');
      });
    }
    expect(content.summary).toContain('Maya');
  });
});

describe('strength from the text, hedging from the evidence', () => {
  it('gives thin evidence the same direction\'s advice as moderate evidence, opened by a tentative note', () => {
    for (const { code, angle } of DISC_TYPES) {
      const thin = selectProfile(readingFrom({ angle, strength: 80, confidence: 8 }), library);
      const moderate = selectProfile(readingFrom({ angle, strength: 80, confidence: 20 }), library);
      expect(thin.worded.overview[0], code).toMatch(/tentative/);
      // Everything but the overview, where the note takes a place, is nearly the same advice (the
      // overview sentence the note displaces may appear further down instead).
      const rest = SECTIONS.filter((s) => s !== 'overview');
      const thinIds = new Set(rest.flatMap((s) => thin.picked[s].map((p) => p.id)));
      const moderateIds = rest.flatMap((s) => moderate.picked[s].map((p) => p.id));
      expect(moderateIds.filter((id) => thinIds.has(id)).length / moderateIds.length, code).toBeGreaterThanOrEqual(0.9);
      expect(thin.picked.overview.slice(1).filter((p) => moderate.picked.overview.includes(p)).length, code).toBeGreaterThanOrEqual(3);
    }
  });

  it('never gives thin evidence the centre\'s balanced content, however weak the reading', () => {
    for (const { code, angle } of DISC_TYPES) {
      for (const strength of [0, 10, 25, 40]) {
        const reading = readingFrom({ angle, strength, confidence: 8 });
        expect(reading.central).toBe(false);
        const { picked, worded } = selectProfile(reading, library);
        expect(Object.values(picked).flat().filter(isCentrePhrase).map((p) => p.id), `${code} ${strength}`).toEqual([]);
        expect(worded.overview.join(' '), `${code} ${strength}`).not.toMatch(/balanced|no (single|dominant|strongly dominant) style|near the centre/i);
      }
    }
  });

  it('reads a founder whose bio says "loves a crowded stage" and "hates losing" as such on thin evidence, hedged', () => {
    // The founder: a strong I/D reading resting on a few lines of text.
    const founder = readingFrom({ angle: 100, strength: 85, confidence: 10 });
    const content = composeProfileContent({ reading: founder, firstName: 'Dario' }, shipped.phrases);
    const text = allSentences(content).join(' ');
    expect(text).not.toMatch(/rarely pushes hard|follow a capable lead|broadly balanced|balanced style/);
    expect(founder.claims).toEqual(expect.arrayContaining(['drive:hard', 'lead:takes', 'tempo:fast']));
    const { picked } = selectProfile(founder, library);
    const sides = Object.values(picked).flat().flatMap((p) => p.stance ?? []);
    expect(sides).not.toContain('drive:gentle');
    expect(sides).not.toContain('lead:yields');
  });

  it('words every statement about a thin reading as a tendency, and keeps the firm ones the evidence allows', () => {
    for (const { angle } of DISC_TYPES) {
      const thin = composeProfileContent({ reading: readingFrom({ angle, strength: 70, confidence: 8 }), firstName: 'Sam' }, shipped.phrases);
      const moderate = composeProfileContent({ reading: readingFrom({ angle, strength: 70, confidence: 20 }), firstName: 'Sam' }, shipped.phrases);
      const strong = composeProfileContent({ reading: readingFrom({ angle, strength: 70, confidence: 90 }), firstName: 'Sam' }, shipped.phrases);
      for (const section of STATEMENT_SECTIONS) {
        for (const sentence of thin[section]) expect(sentence, `${angle} ${section}`).toMatch(HEDGE);
        // Moderate evidence: at most two firm statements a section; strong: as written.
        const firm = moderate[section].filter((s) => !HEDGE.test(s));
        expect(firm.length, `${angle} ${section}`).toBeLessThanOrEqual(2);
        expect(strong[section].join(' ')).not.toMatch(/The writing so far suggests|From the writing so far/);
      }
    }
  });

  it('hedges the first claim of a statement, not only a later clause ("talks ideas through out loud and may change position")', () => {
    expect(hedge('{first} talks ideas through out loud and may change position mid-conversation.')).toBe('{first} probably talks ideas through out loud and may change position mid-conversation.');
    expect(hedge('Bold and self-assured, {first} handles pressure well and may take over a discussion.')).toBe('Bold and self-assured, {first} probably handles pressure well and may take over a discussion.');
    // A phrase fronted before the name, where no adverb fits: the prefix takes a comma, so the phrase is not read as the subject.
    expect(hedge('Comfortable with disagreement, {first} often improves a plan by naming the problem.', 2)).toBe(
      'The writing so far suggests that, comfortable with disagreement, {first} often improves a plan by naming the problem.',
    );
    for (const already of ['Patient and slow to anger, {first} tends to give people the benefit of the doubt.', '{first} may need a nudge.', '{first} is likely to ask.', '{first} is inclined to wait.']) {
      expect(hedge(already)).toBe(already);
    }
    // Sentences whose first claim comes before the person's name carry their own tentative wording.
    const byId = new Map(Object.values(library.sections).flat().map((p) => [p.id, p]));
    const peacemaker = byId.get('working_together-064');
    expect(peacemaker && wordStatements([peacemaker], 'thin')[0]).toMatch(/^When tension rises \{first\} is likely to step in/);
  });

  it('keeps emphatic phrases ("strongly marked", "unmistakable") to strong evidence, at any strength', () => {
    for (const { angle } of DISC_TYPES) {
      for (const confidence of [8, 20, 49]) {
        const { picked } = selectProfile(readingFrom({ angle, strength: 95, confidence }), library);
        expect(Object.values(picked).flat().filter(isEmphatic).map((p) => p.id)).toEqual([]);
      }
    }
    const emphatic = DISC_TYPES.some(({ angle }) => Object.values(selectProfile(readingFrom({ angle, strength: 95, confidence: 90 }), library).picked).flat().some(isEmphatic));
    expect(emphatic).toBe(true);
  });

  it('chooses by the strength the text shows: a pronounced reading does not read as a mild one', () => {
    for (const { angle } of DISC_TYPES) {
      const pronounced = selectProfile(readingFrom({ angle, strength: 90, confidence: 20 }), library);
      expect(Object.values(pronounced.picked).flat().filter(isBlendPhrase)).toEqual([]);
    }
  });
});

describe('a central reading (a blend on moderate or strong evidence)', () => {
  it('opens with the centre phrase of its own lean, says "blend" once, and opens each type differently', () => {
    const openings = new Set<string>();
    for (const { angle } of DISC_TYPES) {
      for (const strength of [5, 18, 29]) {
        const reading = readingFrom({ angle, strength, confidence: 30 });
        expect(reading.central).toBe(true);
        const { picked, worded } = selectProfile(reading, library);
        expect(picked.overview[0] !== undefined && isCentrePhrase(picked.overview[0]), `${angle} ${strength}`).toBe(true);
        expect(picked.overview.filter(isCentrePhrase), `${angle}° at ${strength}`).toHaveLength(1);
        if (strength === 18) openings.add(worded.overview[0] ?? '');
      }
    }
    expect(openings.size).toBe(DISC_TYPES.length);
  });
});

describe('names', () => {
  const reading = readingFrom({ angle: 135, strength: 70 });

  it('falls back to a neutral phrase without a name', () => {
    for (const firstName of [undefined, null, '', '   ', '***']) {
      const content = composeProfileContent({ reading, firstName }, shipped.phrases);
      const text = allSentences(content).join('\n');
      expect(text).not.toContain('{first}');
      expect(text).not.toMatch(/[a-z,;:] This person/);
    }
  });

  it('keeps names with markup characters inert in the HTML form', () => {
    const firstName = '<img src=x onerror="alert(\'1\')">&';
    const content = composeProfileContent({ reading, firstName }, shipped.phrases);
    const html = toInlineHtml(content.summary);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;');
    expect(content.overview.some((t) => t.includes(firstName))).toBe(true);
  });

  it('cannot open a bold run from a name', () => {
    const content = composeProfileContent({ reading, firstName: 'Jo**<b>' }, shipped.phrases);
    const html = toInlineHtml(content.summary);
    expect(html.match(/<b>/g)?.length ?? 0).toBe(html.match(/<\/b>/g)?.length ?? 0);
  });

  it('turns markers into bold tags only after escaping', () => {
    expect(toInlineHtml('A **bold** & <i>x</i>')).toBe('A <b>bold</b> &amp; &lt;i&gt;x&lt;/i&gt;');
    expect(toInlineHtml('stray ** marker')).toBe('stray  marker');
  });
});

describe('determinism, locality and the cache', () => {
  const mine: Section[] = ['overview', 'behavior', 'motivation', 'drainer', 'communication', 'meeting', 'selling'];
  const ids = (angle: number): Set<string> => {
    const { picked } = selectProfile(readingFrom({ angle, strength: 70 }), library);
    return new Set(mine.flatMap((s) => picked[s].map((p) => p.id)));
  };
  const overlap = (a: Set<string>, b: Set<string>): number => [...a].filter((id) => b.has(id)).length / a.size;

  it('gives the same content for the same reading', () => {
    const input = { reading: readingFrom({ angle: 200, strength: 64, confidence: 20 }), firstName: 'Maya' };
    expect(composeProfileContent(input, shipped.phrases)).toEqual(composeProfileContent(input, shipped.phrases));
  });

  it('gives different content to opposite readings', () => {
    for (const { angle } of DISC_TYPES) expect(overlap(ids(angle), ids(angle + 180))).toBeLessThanOrEqual(0.1);
  });

  it('honours an explicit count', () => {
    const content = composeProfileContent({ reading: readingFrom({ angle: 45, strength: 60 }), count: 3 }, shipped.phrases);
    for (const section of mine) expect(content[section]).toHaveLength(3);
  });

  it('gives strengths of one cache class exactly the same choice as a fresh selection, at every 7.5 degrees', () => {
    const limits = strengthLimits([...SECTIONS.flatMap((s) => library.sections[s]), ...library.sectionOverviews]);
    for (let angle = 0; angle < 360; angle += 7.5) {
      for (let strength = 50; strength < 100; strength += 3) {
        const next = strength + 1;
        const a = readingFrom({ angle, strength, confidence: 20 });
        const b = readingFrom({ angle, strength: next, confidence: 20 });
        if (strengthClass(selectionPoint(a).strength, limits) !== strengthClass(selectionPoint(b).strength, limits)) continue;
        expect(selectProfile(b, library).worded, `${angle}° ${strength}/${next}`).toEqual(cachedSelection(a, library).worded);
      }
    }
  }, 180_000);
});
