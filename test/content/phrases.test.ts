import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  loadPhraseLibrary,
  PhraseLibraryError,
  readPhraseLibrary,
  SECTIONS,
  validatePhraseFile,
  type Section,
} from '../../src/content/phrases.ts';
import { selectionPoint } from '../../src/content/candidates.ts';
import { rankCandidates } from '../../src/content/ranking.ts';
import { readingFrom } from '../../src/content/reading.ts';
import { similarity } from '../../src/content/similarity.ts';

const at = (angle: number, strength: number) => selectionPoint(readingFrom({ angle, strength }));
import { DISC_TYPES } from '../../src/personality/circle.ts';

const library = loadPhraseLibrary();
const MINE: Section[] = ['overview', 'behavior', 'motivation', 'drainer', 'communication', 'meeting', 'selling'];

describe('the bundled library', () => {
  it('holds distinct phrases, at least 600 once every file has landed', () => {
    const texts = [...SECTIONS.flatMap((s) => library.sections[s]), ...library.sectionOverviews].map((p) => p.text);
    const distinct = new Set(texts).size;
    // Until every file is present this only checks that what exists holds no repeated text.
    expect(distinct).toBe(texts.length);
    if (library.missing.length === 0) expect(distinct).toBeGreaterThanOrEqual(600);
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

describe('validatePhraseFile', () => {
  const good = { id: 'behavior-001', angle: 10, spread: 40, text: '{first} is **calm**.' };

  it('accepts a well-formed phrase', () => {
    expect(validatePhraseFile('behavior', [good]).problems).toEqual([]);
  });

  it.each([
    [{ ...good, id: 'meeting-001' }, 'id must look like'],
    [{ ...good, angle: 400 }, 'angle'],
    [{ ...good, spread: 0 }, 'spread'],
    [{ ...good, text: 'Hello {name}.' }, 'placeholder'],
    [{ ...good, text: 'Hello {first.' }, 'placeholder'],
    [{ ...good, text: 'A **bold claim.' }, 'unbalanced'],
    [{ ...good, text: 'A *single* star.' }, 'lone *'],
    [{ ...good, minIntensity: 80, maxIntensity: 20 }, 'minIntensity is above'],
    [{ ...good, maxIntensity: 130 }, 'maxIntensity'],
    [{ ...good, colour: 'red' }, 'unknown key'],
    [{ ...good, stance: ['mood:grumpy'] }, 'named in claims.ts'],
    [{ ...good, stance: ['drive:sideways'] }, 'named in claims.ts'],
    [{ ...good, tentative: '{first} is calm.' }, 'tentative must say it as a tendency'],
  ])('rejects %o', (entry, problem) => {
    const { problems } = validatePhraseFile('behavior', [entry]);
    expect(problems.join('\n')).toContain(problem);
  });

  it('accepts trait, role and evidence conditions and rejects unknown ones', () => {
    const conditioned = { ...good, traits: { openness: 'very high', neuroticism: 'low' }, roles: ['sales'], evidence: ['thin'] };
    expect(validatePhraseFile('behavior', [conditioned]).problems).toEqual([]);
    const [phrase] = validatePhraseFile('behavior', [conditioned]).phrases;
    expect(phrase?.traits).toEqual({ openness: 'very high', neuroticism: 'low' });
    expect(phrase?.roles).toEqual(['sales']);
    expect(phrase?.evidence).toEqual(['thin']);
    for (const [bad, problem] of [
      [{ traits: { extraversion: 'high' } }, 'traits must map'],
      [{ traits: { openness: 'medium' } }, 'traits must map'],
      [{ traits: {} }, 'traits must map'],
      [{ roles: ['astronaut'] }, 'roles must be'],
      [{ roles: [] }, 'roles must be'],
      [{ evidence: ['certain'] }, 'evidence must be'],
    ] as const) {
      expect(validatePhraseFile('behavior', [{ ...good, ...bad }]).problems.join('\n')).toContain(problem);
    }
  });

  it('checks qualities are single words and section overviews name their block', () => {
    expect(validatePhraseFile('qualities', [{ ...good, id: 'qualities-001', text: 'good listener' }]).problems).toHaveLength(1);
    const overview = { ...good, id: 'section_overview-001', section: 'emailing' };
    expect(validatePhraseFile('section_overview', [overview]).problems).toEqual([]);
    expect(validatePhraseFile('section_overview', [{ ...overview, section: 'nope' }]).problems).toHaveLength(1);
  });

  it('rejects ids repeated across files and reports missing files', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'phrases-'));
    writeFileSync(path.join(dir, 'behavior.json'), JSON.stringify([good, good]));
    expect(() => readPhraseLibrary(dir)).toThrow(PhraseLibraryError);
    writeFileSync(path.join(dir, 'behavior.json'), JSON.stringify([good]));
    const partial = readPhraseLibrary(dir);
    expect(partial.sections.behavior).toHaveLength(1);
    expect(partial.missing).toContain('overview');
  });
});

describe('similarity', () => {
  it('flags rewordings but not different ideas', () => {
    expect(similarity('Give {first} time to think.', 'Give {first} time to think, please.')).toBeGreaterThan(0.6);
    expect(similarity('consistent', 'considerate')).toBe(0);
    expect(similarity('Winning, and being seen to win.', 'Quiet, focused time.')).toBe(0);
  });
});
