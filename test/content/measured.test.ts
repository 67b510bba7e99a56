import { describe, expect, it } from 'vitest';
import { loadQuestionnaire } from '../../src/assessment/questionnaire.ts';
import { scoreAnswers } from '../../src/assessment/scoring.ts';
import { composeProfileContent } from '../../src/content/compose-profile.ts';
import { composeConnectRecommendations, loadSummaryPhrases } from '../../src/content/connect/recommendations.ts';
import { CLAIM_STANCES, measuredStances, traitLevels } from '../../src/content/individual.ts';
import type { Party } from '../../src/content/party.ts';
import { loadPhraseLibrary, SECTIONS, validatePhraseFile, type Phrase } from '../../src/content/phrases.ts';
import { stancesClash } from '../../src/content/rank.ts';
import { personalize, stripMarkers } from '../../src/content/text.ts';
import { pointToTraits } from '../../src/personality/circle.ts';
import type { TraitEstimate } from '../../src/personality/types.ts';
import { describePersonality } from '../../src/profiles/describe.ts';
import { seededRandom } from '../../src/shared/random.ts';

/**
 * What a personality test measured keeps out advice that says otherwise (phrases' `claims`,
 * individual.ts measuredStances), on the profile page and /find (describePersonality) and in C2.
 * Text estimates are not filtered this way: their output is what it was.
 */

const library = loadPhraseLibrary();
const sectionPhrases = SECTIONS.flatMap((s) => library.sections[s]);
const claimed = [...sectionPhrases, ...library.sectionOverviews, ...loadSummaryPhrases()].filter((p) => p.claims !== undefined);

/**
 * The trial's "Kim" (answers as in its browser script): outgoing and careful. Scored by the real
 * scoring, she is an Id at intensity 96 whose DISC C share is 4 %, and whose conscientiousness
 * the test measured at 0.75.
 */
const KIM_ANSWERS: Record<string, number> = {
  'ipc-01': 1, 'ipc-02': 1, 'neo-o-01': 4, 'ipc-03': 2, 'ipc-04': 4, 'neo-c-01': 3, 'ipc-05': 5, 'ipc-06': 4,
  'neo-o-02': 2, 'ipc-07': 3, 'ipc-08': 4, 'neo-c-02': 5, 'ipc-09': 2, 'ipc-10': 2, 'neo-o-03': 3, 'ipc-11': 3,
  'ipc-12': 3, 'neo-c-03': 1, 'ipc-13': 5, 'ipc-14': 5, 'neo-o-04': 2, 'ipc-15': 4, 'ipc-16': 4, 'neo-c-04': 5,
  'ipc-17': 1, 'ipc-18': 1, 'neo-o-05': 5, 'ipc-19': 2, 'ipc-20': 3, 'neo-c-05': 2, 'ipc-21': 5, 'ipc-22': 5,
  'neo-o-06': 3, 'ipc-23': 3, 'ipc-24': 2, 'neo-c-06': 5, 'ipc-25': 1, 'ipc-26': 1, 'neo-o-07': 4, 'ipc-27': 3,
  'ipc-28': 4, 'neo-c-07': 1, 'ipc-29': 5, 'ipc-30': 4, 'neo-o-08': 3, 'ipc-31': 4, 'ipc-32': 3, 'neo-c-08': 4,
};

function kimEstimate(): TraitEstimate {
  const outcome = scoreAnswers(loadQuestionnaire(), KIM_ANSWERS);
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.estimate;
}

/** Everything a composed profile says, as plain text. */
function profileText(content: ReturnType<typeof composeProfileContent>): string[] {
  return [...SECTIONS.flatMap((s) => content[s]), ...Object.values(content.section_overviews).map(stripMarkers), stripMarkers(content.summary)];
}

/** Everything C2 says, as plain text (markup and the entities it uses removed). */
function connectText(r: ReturnType<typeof composeConnectRecommendations>): string[] {
  const plain = (html: string) => html.replace(/<[^>]*>/g, '').replaceAll('&#39;', "'").replaceAll('&quot;', '"').replaceAll('&amp;', '&');
  const blocks = [r.emailing, r.communication, r.motivations, r.behavior, r.building_trust, r.selling, r.working_together];
  return [plain(r.overview), ...r.qualities.map(plain), ...blocks.flatMap((b) => [plain(b.overview), ...b.phrases.map(plain)])];
}

/** The phrases whose claims the measured stances rule out. */
function ruledOut(stances: readonly string[]): Phrase[] {
  return claimed.filter((p) => p.claims !== undefined && stancesClash(p.claims, stances));
}

function offending(texts: readonly string[], stances: readonly string[], name: string): string[] {
  const banned = new Set(ruledOut(stances).map((p) => stripMarkers(personalize(p.text, name))));
  return texts.filter((t) => banned.has(t));
}

function estimateAt(angle: number, intensity: number, conscientiousness: number, openness: number, source: TraitEstimate['source']): TraitEstimate {
  const r = intensity / 100;
  const { extraversion, agreeableness } = pointToTraits({ x: r * Math.cos((angle * Math.PI) / 180), y: r * Math.sin((angle * Math.PI) / 180) });
  return {
    scores: { extraversion, agreeableness, conscientiousness, openness, neuroticism: 0 },
    confidence: { extraversion: 0.9, agreeableness: 0.9, conscientiousness: 0.9, openness: 0.9, neuroticism: source === 'assessment' ? 0 : 0.9 },
    source,
    modelVersion: 'test',
    wordCount: source === 'assessment' ? 0 : 1500,
  };
}

describe('the trial\'s outgoing and careful taker', () => {
  it('is measured as such: the DISC C share is small, the conscientiousness the test measured is high', () => {
    const kim = describePersonality(kimEstimate(), 'Kim');
    expect(kim.view.disc_type).toBe('Id');
    expect(kim.view.disc_percentages.c).toBe(4);
    expect(kim.estimate.scores.conscientiousness).toBeCloseTo(0.75, 10);
    expect(measuredStances(traitLevels(kim.estimate.scores), true)).toEqual(['novelty:seeks', 'structure:orderly']);
  });

  it('gets no advice on her page or from /find saying she loses track of details (the trial found both beside each other)', () => {
    const text = profileText(describePersonality(kimEstimate(), 'Kim').content);
    expect(text).toContain('Kim notices vague wording and unanswered points; be exact about numbers, dates and who owns what.');
    expect(text.join(' ')).not.toContain('may remember the energy better than the specifics');
    expect(text.join(' ')).not.toContain('starting something new often wins over finishing the last ten per cent');
    expect(offending(text, ['structure:orderly'], 'Kim')).toEqual([]);
  });

  it('gets none in C2 either', () => {
    const party: Party = { firstName: 'Kim', lastName: 'Alvarez', estimate: kimEstimate() };
    const text = connectText(composeConnectRecommendations(party));
    expect(text.join(' ')).not.toContain('may remember the energy better than the specifics');
    expect(offending(text, ['structure:orderly'], 'Kim')).toEqual([]);
  });

  it('would still get that advice from a text estimate of the same scores: text profiles are unchanged', () => {
    const predicted: TraitEstimate = { ...kimEstimate(), source: 'prediction', wordCount: 1500 };
    const text = profileText(describePersonality(predicted, 'Kim').content).join(' ');
    expect(text).toContain('may remember the energy better than the specifics');
  });
});

describe('a measured trait keeps out sector advice that says otherwise', () => {
  it('leaves the checklists out for a test-taker measured low in conscientiousness', () => {
    const low = estimateAt(225, 85, -0.7, 0, 'assessment');
    const measured = profileText(describePersonality(low, 'Lee').content);
    const guessed = profileText(describePersonality({ ...low, source: 'prediction', wordCount: 1500 }, 'Lee').content);
    // The C sector's stereotype, said of a person whose text reads as careless too: a text estimate changes nothing.
    expect(offending(guessed, ['structure:loose'], 'Lee').length).toBeGreaterThan(0);
    expect(offending(measured, ['structure:loose'], 'Lee')).toEqual([]);
    const qualities = describePersonality(low, 'Lee').content.qualities;
    for (const word of ['meticulous', 'methodical', 'careful', 'precise', 'rigorous', 'orderly']) expect(qualities).not.toContain(word);
    const c2 = connectText(composeConnectRecommendations({ firstName: 'Lee', estimate: low }));
    expect(offending(c2, ['structure:loose'], 'Lee')).toEqual([]);
  });

  it('holds over 400 test-takers all round the circle, on the page and in C2, with every section still full', () => {
    const random = seededRandom(1010);
    const marked = () => (random() < 0.5 ? -1 : 1) * (0.3 + 0.7 * random());
    let ruled = 0;
    let shortOverviews = 0;
    for (let i = 0; i < 400; i++) {
      const estimate = estimateAt(random() * 360, 20 + Math.round(random() * 79), marked(), random() < 0.5 ? marked() : 0, 'assessment');
      const stances = measuredStances(traitLevels(estimate.scores), true);
      const { content } = describePersonality(estimate, 'Ana');
      expect(offending(profileText(content), stances, 'Ana'), `estimate ${i}`).toEqual([]);
      // A blend's overview takes only mild leans, one per theme, so it can be a sentence short
      // (test/content/stances.test.ts bounds how often); every other section is full.
      for (const section of SECTIONS) {
        if (section === 'overview') shortOverviews += content.overview.length === 4 ? 1 : 0;
        else expect(content[section].length, `${section} ${i}`).toBe(section === 'qualities' ? 6 : 5);
      }
      expect(content.overview.length, `overview ${i}`).toBeGreaterThanOrEqual(4);
      expect(offending(connectText(composeConnectRecommendations({ firstName: 'Ana', estimate })), stances, 'Ana'), `C2 ${i}`).toEqual([]);
      const asText = profileText(describePersonality({ ...estimate, source: 'prediction', wordCount: 1500 }, 'Ana').content);
      ruled += offending(asText, stances, 'Ana').length;
    }
    // The same people as text estimates would have been told those things: the check has teeth.
    expect(ruled).toBeGreaterThan(50);
    expect(shortOverviews).toBeLessThan(400 / 10);
  });
});

describe('claims in the phrase library', () => {
  it('name only the sides of what the test measures, and sit on sector phrases (trait phrases carry a stance)', () => {
    expect([...CLAIM_STANCES].sort()).toEqual(['novelty:seeks', 'novelty:wary', 'structure:loose', 'structure:orderly']);
    expect(claimed.length).toBeGreaterThan(40);
    for (const phrase of claimed) {
      expect(phrase.traits, phrase.id).toBeUndefined();
      for (const claim of phrase.claims ?? []) expect(CLAIM_STANCES, phrase.id).toContain(claim);
      // A claim already made as a stance would be checked twice.
      const topics = new Set((phrase.stance ?? []).map((s) => s.split(':')[0]));
      for (const claim of phrase.claims ?? []) expect(topics.has(claim.split(':')[0]), phrase.id).toBe(false);
    }
  });

  it('refuses a claim on a topic the test does not measure', () => {
    const { problems } = validatePhraseFile('behavior', [{ id: 'behavior-999', angle: 0, spread: 45, text: '{first} stays calm.', claims: ['composure:steady'] }]);
    expect(problems.join('\n')).toContain('claims must be a non-empty list of');
    const beside = validatePhraseFile('behavior', [{ id: 'behavior-998', angle: 0, spread: 45, text: '{first} plans ahead.', traits: { conscientiousness: 'high' }, claims: ['structure:orderly'] }]);
    expect(beside.problems.join('\n')).toContain('claims sit on sector phrases only');
  });
});
