import { describe, expect, it } from 'vitest';
import { API_SECTIONS, generatedPeople, measureOverlap, PAGE_SECTIONS, type OverlapPerson } from '../../src/content/advice-overlap.ts';
import { composeProfileContent, type ProfileContent } from '../../src/content/compose-profile.ts';
import { EMPHATIC_INTENSITY, evidenceLevel, roleFamily, traitLevels } from '../../src/content/individual.ts';
import { loadPhraseLibrary, readPhraseLibrary, SECTIONS } from '../../src/content/phrases.ts';
import { stripMarkers } from '../../src/content/text.ts';
import { DISC_TYPES } from '../../src/personality/circle.ts';
import type { DiscPoint, TraitScores } from '../../src/personality/types.ts';
import { describePersonality } from '../../src/profiles/describe.ts';
import { demoPeople } from '../helpers/demo-people.ts';

const library = loadPhraseLibrary();

/** Wording that claims a trait is pronounced; only for high intensity and high confidence. */
const EMPHATIC = /strongly marked|unmistakabl|is (\*\*)?strong(\*\*)?[:;,.]|runs (\*\*)?deep|extremely|exceptionally|intensely|far more than/i;

function pointAt(angle: number, intensity: number): DiscPoint {
  const r = intensity / 100;
  return { x: r * Math.cos((angle * Math.PI) / 180), y: r * Math.sin((angle * Math.PI) / 180) };
}

function everything(content: ProfileContent): string[] {
  return [...SECTIONS.flatMap((s) => content[s]), content.summary, ...Object.values(content.section_overviews)];
}

const MID: TraitScores = { extraversion: 0, agreeableness: 0, conscientiousness: 0, openness: 0, neuroticism: 0 };

describe('wording follows the evidence', () => {
  it('keeps emphatic wording in the library to pronounced-trait phrases', () => {
    const all = [...SECTIONS.flatMap((s) => library.sections[s]), ...library.sectionOverviews];
    const emphatic = all.filter((p) => EMPHATIC.test(p.text));
    expect(emphatic.length).toBeGreaterThan(0);
    for (const phrase of emphatic) expect(phrase.minIntensity ?? 0, phrase.id).toBeGreaterThanOrEqual(EMPHATIC_INTENSITY);
  });

  it('uses no emphatic phrase below confidence 50, even at intensity 95', () => {
    for (const { angle } of DISC_TYPES) {
      for (const confidence of [0, 8, 12, 14, 15, 20, 49]) {
        const content = composeProfileContent({ point: pointAt(angle, 95), firstName: 'Maya', confidence });
        for (const text of everything(content)) expect(text, `${angle}° confidence ${confidence}`).not.toMatch(EMPHATIC);
      }
    }
  });

  it('allows emphatic phrases where intensity and confidence are both high', () => {
    for (const angle of [45, 135, 225, 315]) {
      const content = composeProfileContent({ point: pointAt(angle, 95), firstName: 'Maya', confidence: 100 });
      expect(content.overview.some((t) => EMPHATIC.test(t)), `${angle}°`).toBe(true);
      const low = composeProfileContent({ point: pointAt(angle, 50), firstName: 'Maya', confidence: 100 });
      expect(everything(low).some((t) => EMPHATIC.test(t)), `${angle}° at intensity 50`).toBe(false);
    }
  });

  it('reads thin evidence as a tentative blend: the opening sentence says so', () => {
    for (const { angle } of DISC_TYPES) {
      const content = composeProfileContent({ point: pointAt(angle, 90), firstName: 'Maya', confidence: 12 });
      expect(content.overview[0]).toMatch(/tentative|may change/);
      expect(content.summary).toMatch(/tentative|may change/);
      // No claim that the person sits at the centre: the evidence is thin, not the style.
      expect(everything(content).join(' ')).not.toMatch(/balanced style|close to the centre|no fixed working style/);
    }
    // Only the general "tends to" phrases of a clearly marked trait, not the definite ones.
    const traits = { ...MID, neuroticism: -0.9 };
    const thin = composeProfileContent({ point: pointAt(45, 90), firstName: 'Maya', confidence: 12, traits });
    const sure = composeProfileContent({ point: pointAt(45, 90), firstName: 'Maya', confidence: 100, traits });
    expect(thin.overview.join(' ')).toContain('tends to stay even-tempered');
    expect(sure.overview.join(' ')).toContain('Pressure barely seems to register');
    expect(thin.overview.join(' ')).not.toContain('Pressure barely seems to register');
    const assessed = composeProfileContent({ point: pointAt(45, 15), firstName: 'Maya', confidence: 100 });
    expect(assessed.overview.join(' ')).not.toMatch(/tentative|may change/);
  });

  it('places the thresholds where documented, and treats a missing confidence as strong', () => {
    expect([undefined, 14.9, 15, 49, 50, 100].map(evidenceLevel)).toEqual(['strong', 'thin', 'moderate', 'moderate', 'strong', 'strong']);
  });

  it('describePersonality reads the estimate confidence (a short text is tentative)', () => {
    const estimate = {
      scores: { ...MID, extraversion: 0.8, agreeableness: 0.7 },
      confidence: { ...MID, extraversion: 0.1, agreeableness: 0.12 },
      source: 'prediction' as const,
      modelVersion: 'test',
      wordCount: 60,
    };
    expect(describePersonality(estimate, 'Sam').content.overview[0]).toMatch(/tentative|may change/);
    const sure = { ...estimate, confidence: { ...MID, extraversion: 1, agreeableness: 1 }, source: 'assessment' as const };
    expect(describePersonality(sure, 'Sam').content.overview.join(' ')).toMatch(/strongly marked/);
  });
});

describe('advice fits the individual', () => {
  const base = { point: pointAt(47, 70), firstName: 'Maya', confidence: 18 };

  it('reads trait levels and role families', () => {
    expect(traitLevels({ openness: 0.5, conscientiousness: -0.4, neuroticism: 0.1 })).toEqual({ openness: 'high', conscientiousness: 'low' });
    expect(
      ['VP of Sales', 'Senior Backend Developer', 'Customer Success Manager', 'Engineering Manager', 'HR Business Partner', 'Archivist', null].map(roleFamily),
    ).toEqual(['sales', 'engineering', 'support', 'management', 'people', null, null]);
  });

  it('gives same-type people with different traits or roles visibly different advice', () => {
    const plain = composeProfileContent({ ...base, traits: MID });
    const curious = composeProfileContent({ ...base, traits: { ...MID, openness: 0.7, conscientiousness: -0.6 } });
    const careful = composeProfileContent({ ...base, traits: { ...MID, openness: -0.7, conscientiousness: 0.6 } });
    const seller = composeProfileContent({ ...base, traits: MID, title: 'Account Executive' });
    const shared = (a: ProfileContent, b: ProfileContent): number => {
      const bs = new Set(API_SECTIONS.flatMap((s) => b[s]));
      const as = API_SECTIONS.flatMap((s) => a[s]);
      return as.filter((t) => bs.has(t)).length / as.length;
    };
    // Opposite openness and conscientiousness: only the sector's own places are shared.
    expect(shared(curious, careful)).toBeLessThanOrEqual(0.6);
    expect(shared(plain, curious)).toBeLessThan(0.7);
    expect(shared(plain, seller)).toBeLessThan(1);
    expect([...seller.selling, ...seller.meeting].join(' ')).toMatch(/sales|sells|selling/);
  });

  it('reads a lean short of a marked level, and phrases it tentatively', () => {
    expect(traitLevels({ openness: 0.2, conscientiousness: -0.16, neuroticism: 0.1 })).toEqual({ openness: 'slightly high', conscientiousness: 'slightly low' });
    expect(traitLevels({ openness: 0.3, conscientiousness: -0.3, neuroticism: 0.149 })).toEqual({ openness: 'high', conscientiousness: 'low' });
    const leanPhrases = SECTIONS.flatMap((s) => library.sections[s]).filter((p) => Object.values(p.traits ?? {}).some((level) => level.startsWith('slightly')));
    expect(leanPhrases.length).toBeGreaterThanOrEqual(6 * 7);
    for (const phrase of leanPhrases) expect(phrase.text, phrase.id).toMatch(/\b(may|might|seems?|tends?|likely)\b/);

    // A lean gets the lean's phrases, never the marked level's, and the marked level never the lean's.
    const texts = (c: ProfileContent) => new Set(API_SECTIONS.flatMap((s) => c[s]));
    const phrasesFor = (level: string) =>
      new Set(API_SECTIONS.flatMap((s) => library.sections[s].filter((p) => p.traits?.conscientiousness === level).map((p) => stripMarkers(p.text.replaceAll('{first}', 'Maya')))));
    const count = (page: Set<string>, phrases: Set<string>) => [...page].filter((t) => phrases.has(t)).length;
    // At 0° no sector phrase claims how orderly the person is (at 47° they do, and a lean gives way: below).
    const at = { ...base, point: pointAt(0, 70) };
    const leaning = texts(composeProfileContent({ ...at, traits: { ...MID, conscientiousness: 0.2 } }));
    const marked = texts(composeProfileContent({ ...at, traits: { ...MID, conscientiousness: 0.5 } }));
    expect(count(leaning, phrasesFor('slightly high'))).toBeGreaterThan(0);
    expect(count(leaning, phrasesFor('high'))).toBe(0);
    expect(count(marked, phrasesFor('high'))).toBeGreaterThan(0);
    expect(count(marked, phrasesFor('slightly high'))).toBe(0);
  });

  it('lets a lean give way to the sector, where a marked trait overrules it', () => {
    const at = { point: pointAt(22.5, 60), firstName: null, confidence: 30 };
    const drainers = (neuroticism: number) => composeProfileContent({ ...at, traits: { ...MID, neuroticism } }).drainer.join(' ');
    expect(drainers(-0.2)).toContain('Harsh criticism');
    expect(drainers(-0.8)).not.toContain('Harsh criticism');
  });

  it('gives the role more of each block near the centre, where the point says little', () => {
    const roleTexts = new Set(SECTIONS.flatMap((s) => library.sections[s].filter((p) => p.roles?.includes('finance')).map((p) => p.text.replaceAll('{first}', 'Maya'))));
    const rolePerBlock = (intensity: number) => {
      const content = composeProfileContent({ point: pointAt(200, intensity), firstName: 'Maya', confidence: 30, traits: MID, title: 'Financial Controller' });
      return API_SECTIONS.map((s) => content[s].filter((t) => roleTexts.has(t)).length);
    };
    const near = rolePerBlock(30);
    const far = rolePerBlock(65);
    expect(Math.max(...far)).toBe(1);
    expect(Math.max(...near)).toBe(2);
    expect(near.reduce((a, b) => a + b, 0)).toBeGreaterThan(far.reduce((a, b) => a + b, 0));
    expect(Math.min(...far)).toBe(1);
  });

  it('uses the exact point within a sector: angle and radius', () => {
    const at = (angle: number, intensity: number) => composeProfileContent({ point: pointAt(angle, intensity), confidence: 100 });
    const ids = (c: ProfileContent) => new Set(API_SECTIONS.flatMap((s) => c[s]));
    const centre = ids(at(45, 60));
    const edge = ids(at(55, 60));
    const strong = ids(at(45, 95));
    expect([...edge].filter((t) => centre.has(t)).length).toBeLessThan(centre.size);
    expect([...strong].filter((t) => centre.has(t)).length).toBeLessThan(centre.size);
  });

  it('is deterministic, and the cache gives what a fresh library gives', () => {
    const input = { ...base, traits: { ...MID, openness: 0.7, neuroticism: 0.5 }, title: 'Data Scientist' };
    const first = composeProfileContent(input);
    expect(composeProfileContent(input)).toEqual(first);
    expect(composeProfileContent(input, readPhraseLibrary())).toEqual(first);
  });

  it('keeps the profile free of repeats and placeholders with every combination of traits and role', () => {
    for (const o of [-0.6, 0, 0.6]) {
      for (const n of [-0.6, 0.6]) {
        for (const title of ['Sales Director', 'Accountant', null]) {
          const content = composeProfileContent({ ...base, traits: { ...MID, openness: o, conscientiousness: -o, neuroticism: n }, title });
          const all = SECTIONS.flatMap((s) => content[s]);
          expect(new Set(all).size).toBe(all.length);
          for (const s of SECTIONS) expect(content[s].length).toBe(s === 'qualities' ? 6 : 5);
          for (const text of everything(content)) expect(text).not.toMatch(/[{}]/);
        }
      }
    }
  });
});

describe('how much two people of the same type share (target: under 50 %)', () => {
  it('over 200 generated people, API and page sentences', () => {
    const people = generatedPeople(200);
    for (const sections of [API_SECTIONS, PAGE_SECTIONS]) {
      const report = measureOverlap(people, sections);
      expect(report.pairs).toBeGreaterThan(500);
      expect(report.mean).toBeLessThan(0.5);
    }
  });

  it('over the demo people', () => {
    const people: OverlapPerson[] = demoPeople().map(({ name, estimate, title }) => ({ label: name, estimate, title }));
    const report = measureOverlap(people, API_SECTIONS);
    expect(report.pairs).toBeGreaterThan(5);
    // The demo texts are 149–215 words, which since the evidence shrink (src/personality/shrink.ts)
    // support intensities of 16–40 only: same-type demo people sit close together near the
    // centre. What still tells them apart is their role (two role phrases per section near the
    // centre) and which way each trait leans (tentative phrases), not louder claims.
    expect(report.mean).toBeLessThan(0.5);
  });
});
