import { describe, expect, it } from 'vitest';
import { generatedPeople, measureOverlap, API_SECTIONS, PAGE_SECTIONS, type OverlapPerson } from '../../src/content/advice-overlap.ts';
import { composeConnectRecommendations } from '../../src/content/connect/recommendations.ts';
import { viewParty } from '../../src/content/party.ts';
import { CENTRAL_STRENGTH, EMPHATIC_CONFIDENCE, evidenceLevel, readEstimate, readingFrom, TENTATIVE_CONFIDENCE } from '../../src/content/reading.ts';
import { roleFamily } from '../../src/content/roles.ts';
import { knownTraitLevels, traitLevels } from '../../src/content/traits.ts';
import { discIntensity, DISC_TYPES, pointToTraits, traitsToPoint } from '../../src/personality/circle.ts';
import { evidenceWeight } from '../../src/personality/shrink.ts';
import type { TraitEstimate, TraitScores } from '../../src/personality/types.ts';
import { personalityView } from '../../src/personality/views.ts';
import { describePersonality } from '../../src/content/describe.ts';
import { demoPeople } from '../helpers/demo-people.ts';
import { shipped } from '../helpers/content.ts';

/** A text estimate of `words` words whose reading lies at `angle` with `strength` (0–100), shrunk as analyzeText shrinks it. */
function textEstimate(angle: number, strength: number, words: number, confidence = 0.15): TraitEstimate {
  const r = strength / 100;
  const { extraversion, agreeableness } = pointToTraits({ x: r * Math.cos((angle * Math.PI) / 180), y: r * Math.sin((angle * Math.PI) / 180) });
  const kept = evidenceWeight(words);
  const scores: TraitScores = { extraversion: kept * extraversion, agreeableness: kept * agreeableness, conscientiousness: 0, openness: 0, neuroticism: 0 };
  const c: TraitScores = { extraversion: confidence, agreeableness: confidence, conscientiousness: confidence, openness: confidence, neuroticism: confidence };
  return { scores, confidence: c, source: 'prediction', modelVersion: 'test', wordCount: words, evidenceWeight: kept };
}

describe('one reading of a person', () => {
  it('shows the shrunk intensity and reads the strength the text itself has, in the same direction', () => {
    const estimate = textEstimate(110, 90, 200);
    const reading = readEstimate(estimate);
    const view = personalityView(estimate);
    expect(reading.type).toBe(view.discType);
    expect(reading.intensity).toBe(view.discIntensity);
    expect(reading.intensity).toBeLessThan(40);
    expect(reading.strength).toBe(90);
    expect(Math.abs(reading.angle - view.angle)).toBeLessThanOrEqual(0.25);
    expect(reading.confidence).toBe(view.confidence);
  });

  it('reads a test, which is not shrunk, at the intensity it shows', () => {
    const test = { ...textEstimate(300, 60, 0, 0.9), source: 'assessment' as const, wordCount: 0 };
    delete (test as { evidenceWeight?: number }).evidenceWeight;
    test.scores = { ...test.scores, ...pointToTraits({ x: 0.6 * Math.cos((300 * Math.PI) / 180), y: 0.6 * Math.sin((300 * Math.PI) / 180) }) };
    const reading = readEstimate(test);
    expect(reading.strength).toBe(discIntensity(traitsToPoint(test.scores)));
    expect(reading.strength).toBe(reading.intensity);
    expect(reading.evidence).toBe('strong');
  });

  it('calls a reading central only where it is itself near the centre on moderate or strong evidence', () => {
    expect(readingFrom({ angle: 10, strength: 20, confidence: 20 }).central).toBe(true);
    expect(readingFrom({ angle: 10, strength: 20, confidence: 8 }).central).toBe(false);
    expect(readingFrom({ angle: 10, strength: CENTRAL_STRENGTH, confidence: 20 }).central).toBe(false);
    // A strong reading from few words is not central, however far its shown point was shrunk.
    const short = readEstimate(textEstimate(45, 85, 60, 0.1));
    expect(short.intensity).toBeLessThan(CENTRAL_STRENGTH);
    expect(short.central).toBe(false);
    expect(short.evidence).toBe('thin');
  });

  it("takes its style from the type shown: a type's first letter, its lean from the second", () => {
    for (const { code, angle } of DISC_TYPES) {
      const reading = readingFrom({ angle, strength: 60 });
      expect(reading.type).toBe(code);
      expect(reading.style).toBe(code.charAt(0));
      expect(reading.lean).toBe(code.length > 1 ? code.charAt(1).toUpperCase() : null);
      expect(viewParty({ firstName: null, estimate: textEstimate(angle, 60, 5000, 0.6) }).style).toBe(code.charAt(0));
    }
  });

  it('places the evidence thresholds where documented, one confidence for every surface', () => {
    expect(evidenceLevel(TENTATIVE_CONFIDENCE - 1)).toBe('thin');
    expect(evidenceLevel(TENTATIVE_CONFIDENCE)).toBe('moderate');
    expect(evidenceLevel(EMPHATIC_CONFIDENCE - 1)).toBe('moderate');
    expect(evidenceLevel(EMPHATIC_CONFIDENCE)).toBe('strong');
    expect(evidenceLevel(undefined)).toBe('strong');
  });

  it("knows the traits the point leaves out only where their own confidence is a test's", () => {
    const text = textEstimate(45, 60, 600, 0.27);
    text.scores = { ...text.scores, openness: 0.3, conscientiousness: -0.3 };
    expect(knownTraitLevels(text)).toEqual({});
    const measured: TraitEstimate = { ...text, source: 'assessment', confidence: { ...text.confidence, openness: 0.9, conscientiousness: 0.9, neuroticism: 0 } };
    delete measured.evidenceWeight;
    expect(knownTraitLevels(measured)).toEqual({ openness: 'high', conscientiousness: 'low' });
    expect(traitLevels({ openness: 0.2, conscientiousness: -0.16, neuroticism: 0.1 })).toEqual({ openness: 'slightly high', conscientiousness: 'slightly low' });
  });
});

describe('roles', () => {
  it('reads role families from titles, first match winning', () => {
    expect(
      ['VP of Sales', 'Senior Backend Developer', 'Customer Success Manager', 'Engineering Manager', 'HR Business Partner', 'Archivist', null].map(roleFamily),
    ).toEqual(['sales', 'engineering', 'support', 'management', 'people', null, null]);
    expect(roleFamily('Podcast Host and Producer')).toBe('marketing');
    expect(roleFamily('Senior Product Designer')).toBe('design');
    expect(roleFamily('Technical Writer')).toBe('engineering');
    expect(roleFamily('Staff Writer')).toBe('marketing');
  });

  it('says what a role usually brings, never that the person does a thing because of their title', () => {
    const reading = (title: string) => describePersonality(shipped.phrases, textEstimate(45, 70, 300), 'Theo', { title }).content;
    const sales = reading('VP of Sales');
    const all = Object.values(sales).flat().join(' ');
    expect(all).not.toMatch(/Theo is on calls much of the day|Theo reads email between calls|Theo works in sales/);
    const c2 = composeConnectRecommendations({ firstName: 'Rafael', estimate: textEstimate(30, 70, 300), title: 'Podcast Host and Producer' }, shipped);
    expect(JSON.stringify(c2)).not.toContain('designs and makes things');
  });
});

describe('how much two people of the same type share (target: under 50 %)', () => {
  it('over 200 generated people, API and page sentences', () => {
    const people = generatedPeople(200);
    for (const sections of [API_SECTIONS, PAGE_SECTIONS]) {
      const report = measureOverlap(shipped.phrases, people, sections);
      expect(report.pairs).toBeGreaterThan(500);
      expect(report.mean).toBeLessThan(0.5);
    }
  });

  it('over the demo people', () => {
    const people: OverlapPerson[] = demoPeople().map(({ name, estimate, title }) => ({ label: name, estimate, title }));
    const report = measureOverlap(shipped.phrases, people, API_SECTIONS);
    expect(report.mean).toBeLessThan(0.5);
  });
});
