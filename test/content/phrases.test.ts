import { describe, expect, it } from 'vitest';
import { SECTIONS, type Section } from '../../src/content/phrases.ts';
import { phraseFileProblems } from '../../src/content/load-content.ts';
import { selectionPoint } from '../../src/content/candidates.ts';
import { rankCandidates } from '../../src/content/ranking.ts';
import { readingFrom } from '../../src/content/reading.ts';
import { similarity } from '../../src/content/similarity.ts';

const at = (angle: number, strength: number) => selectionPoint(readingFrom({ angle, strength }));
import { DISC_TYPES } from '../../src/personality/circle.ts';
import { shipped } from '../helpers/content.ts';

const library = shipped.phrases;
const MINE: Section[] = ['overview', 'behavior', 'motivation', 'drainer', 'communication', 'meeting', 'selling'];

describe('the bundled library', () => {
  it('holds distinct phrases, at least 600 once every file has landed', () => {
    const texts = [...SECTIONS.flatMap((s) => library.sections[s]), ...library.sectionOverviews].map((p) => p.text);
    const distinct = new Set(texts).size;
    expect(distinct).toBe(texts.length);
    expect(distinct).toBeGreaterThanOrEqual(600);
  });

  it.each(MINE)('%s has 50+ phrases, 3+ candidates in every sector, and blend phrases', (section) => {
    const phrases = library.sections[section];
    expect(phrases.length).toBeGreaterThanOrEqual(50);
    for (const { angle } of DISC_TYPES) {
      const close = rankCandidates(phrases, at(angle, 60)).filter((r) => r.fit >= 0.5);
      expect(close.length, `${section} at ${angle}`).toBeGreaterThanOrEqual(3);
    }
    expect(phrases.filter((p) => p.maxIntensity !== undefined && p.maxIntensity <= 35).length).toBeGreaterThanOrEqual(4);
  });

  it('has a phrase for each end of openness, conscientiousness and neuroticism in every sentence section, and role phrases', () => {
    for (const section of SECTIONS) {
      const conditioned = library.sections[section].filter((p) => p.traits !== undefined);
      for (const trait of ['openness', 'conscientiousness', 'neuroticism'] as const) {
        for (const level of ['high', 'low'] as const) {
          expect(conditioned.some((p) => p.traits?.[trait] === level), `${section} ${trait} ${level}`).toBe(true);
        }
      }
    }
    for (const section of ['meeting', 'selling', 'working_together', 'do', 'emailing'] as const) {
      const families = new Set(library.sections[section].flatMap((p) => p.roles ?? []));
      expect(families.size, section).toBe(10);
    }
  });

  it('gives every present section candidates in every sector', () => {
    for (const section of SECTIONS.filter((s) => library.sections[s].length > 0)) {
      for (const { angle } of DISC_TYPES) {
        const ranked = rankCandidates(library.sections[section], at(0, 0));
        expect(ranked.length).toBeGreaterThan(0);
        const close = rankCandidates(library.sections[section], at(angle, 60)).filter((r) => r.fit > 0);
        expect(close.length, `${section} at ${angle}`).toBeGreaterThanOrEqual(section === 'qualities' ? 4 : 3);
      }
    }
  });
});

describe('a phrase file: its schema, then the phrase checks', () => {
  const good = { id: 'behavior-001', angle: 10, spread: 40, text: '{first} is **calm**.' };
  const problems = (section: string, entries: unknown[]) => phraseFileProblems(section, entries).map((p) => `${p.pointer}: ${p.problem}`);

  it('accepts a well-formed phrase', () => {
    expect(problems('behavior', [good])).toEqual([]);
  });

  it.each([
    [{ ...good, id: 'meeting-001' }, '/0/id: meeting-001: id must look like "behavior-001"'],
    [{ ...good, angle: 400 }, '/0/angle: must be <= 360'],
    [{ ...good, spread: 0 }, '/0/spread: must be > 0'],
    [{ ...good, text: 'Hello {name}.' }, '/0/text: behavior-001: text has a placeholder other than {first}'],
    [{ ...good, text: 'Hello {first.' }, '/0/text: behavior-001: text has a placeholder'],
    [{ ...good, text: 'A **bold claim.' }, '/0/text: behavior-001: text has unbalanced'],
    [{ ...good, text: 'A *single* star.' }, '/0/text: behavior-001: text has a lone *'],
    [{ ...good, minIntensity: 80, maxIntensity: 20 }, '/0/minIntensity: behavior-001: minIntensity is above'],
    [{ ...good, maxIntensity: 130 }, '/0/maxIntensity: must be <= 100'],
    [{ ...good, colour: 'red' }, '/0/colour: is not a field this file has'],
    [{ ...good, stance: ['mood:grumpy'] }, '/0/stance/0: must be one of'],
    [{ ...good, stance: ['drive:sideways'] }, '/0/stance/0: must be one of'],
    [{ ...good, tentative: '{first} is calm.' }, '/0/tentative: behavior-001: tentative must say it as a tendency'],
  ])('rejects %o', (entry, problem) => {
    expect(problems('behavior', [entry]).join('\n')).toContain(problem);
  });

  it('accepts trait, role and evidence conditions and rejects unknown ones', () => {
    const conditioned = { ...good, traits: { openness: 'very high', neuroticism: 'low' }, roles: ['sales'], evidence: ['thin'] };
    expect(problems('behavior', [conditioned])).toEqual([]);
    for (const [bad, problem] of [
      [{ traits: { extraversion: 'high' } }, '/0/traits/extraversion: is not a field'],
      [{ traits: { openness: 'medium' } }, '/0/traits/openness: must be one of very high, high'],
      [{ traits: {} }, '/0/traits: must not have fewer than 1'],
      [{ roles: ['astronaut'] }, '/0/roles/0: must be one of sales'],
      [{ roles: [] }, '/0/roles: must not have fewer than 1 items'],
      [{ evidence: ['certain'] }, '/0/evidence/0: must be one of thin, moderate, strong'],
    ] as const) {
      expect(problems('behavior', [{ ...good, ...bad }]).join('\n')).toContain(problem);
    }
  });

  it('checks qualities are single words and section overviews name their block', () => {
    expect(problems('qualities', [{ ...good, id: 'qualities-001', text: 'good listener' }])).toHaveLength(1);
    const overview = { ...good, id: 'section_overview-001', section: 'emailing' };
    expect(problems('section_overview', [overview])).toEqual([]);
    expect(problems('section_overview', [{ ...overview, section: 'nope' }])).toEqual(['/0/section: must be one of emailing, communication, motivations, behavior, building_trust, selling, working_together']);
  });
});

describe('similarity', () => {
  it('flags rewordings but not different ideas', () => {
    expect(similarity('Give {first} time to think.', 'Give {first} time to think, please.')).toBeGreaterThan(0.6);
    expect(similarity('consistent', 'considerate')).toBe(0);
    expect(similarity('Winning, and being seen to win.', 'Quiet, focused time.')).toBe(0);
  });
});
