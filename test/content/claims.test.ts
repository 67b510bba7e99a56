import { describe, expect, it } from 'vitest';
import { isBlendPhrase, isCentrePhrase, isOwnPhrase } from '../../src/content/candidates.ts';
import { CLAIM_WORDING, claimsWorded } from '../../src/content/claim-wording.ts';
import { claimsOf, DIRECTIONAL_TOPICS, isDirectional, OTHER_TOPICS, STANCES, topicOf } from '../../src/content/claims.ts';
import { composeSampleEmails } from '../../src/content/connect/emails.ts';
import { composeConnectRecommendations } from '../../src/content/connect/recommendations.ts';
import { composeRelationship } from '../../src/content/connect/relationship.ts';
import { partyAt, withConfidence } from './connect/helpers.ts';
import { SECTIONS, type Phrase } from '../../src/content/phrases.ts';
import { checkGeneratedProfiles, checkPage, composedPage, generatedReadings } from '../../src/content/profile-check.ts';
import { readEstimate, readingFrom } from '../../src/content/reading.ts';
import { DISC_TYPES } from '../../src/personality/circle.ts';
import { HEDGE } from '../../src/content/hedge.ts';
import { STATEMENT_SECTIONS } from '../../src/content/wording.ts';
import { describePersonality } from '../../src/content/describe.ts';
import { demoPeople } from '../helpers/demo-people.ts';
import { shipped } from '../helpers/content.ts';

const library = shipped.phrases;
const summaries = shipped.summaries;
const everything: Phrase[] = [...SECTIONS.flatMap((s) => library.sections[s]), ...library.sectionOverviews, ...summaries];
const byId = new Map(everything.map((p) => [p.id, p]));

describe('what a reading claims', () => {
  it('claims one side or none of every directional topic, and the opposite sides for the opposite direction', () => {
    for (const { angle } of DISC_TYPES) {
      const here = claimsOf({ angle, strength: 70, central: false, traits: {} });
      const there = new Set(claimsOf({ angle: angle + 180, strength: 70, central: false, traits: {} }));
      for (const topic of Object.keys(DIRECTIONAL_TOPICS)) expect(here.filter((c) => topicOf(c) === topic).length).toBeLessThanOrEqual(1);
      for (const claim of here.filter((c) => isDirectional(topicOf(c)))) {
        const [topic, side] = claim.split(':') as [keyof typeof DIRECTIONAL_TOPICS, string];
        const other = DIRECTIONAL_TOPICS[topic].sides.find((s) => s !== side);
        expect(there.has(`${topic}:${other}`), `${angle} ${claim}`).toBe(true);
      }
    }
  });

  it('claims less of a central reading, and lets a test\'s measure decide the topics it speaks to', () => {
    for (const { angle } of DISC_TYPES) {
      const central = claimsOf({ angle, strength: 20, central: true, traits: {} });
      const firm = claimsOf({ angle, strength: 70, central: false, traits: {} });
      expect(central.length).toBeLessThan(firm.length);
      expect(central).toContain('degree:mild');
      expect(firm).toContain('degree:firm');
    }
    // An I reading is loose with details by its direction; a test measuring her careful says otherwise.
    expect(claimsOf({ angle: 45, strength: 90, central: false, traits: {} })).toEqual(expect.arrayContaining(['structure:loose', 'detail:big_picture']));
    expect(claimsOf({ angle: 45, strength: 90, central: false, traits: { conscientiousness: 'high' } })).toEqual(expect.arrayContaining(['structure:orderly', 'detail:detail']));
  });
});

describe('every phrase declares what it claims', () => {
  it('names only known topics and sides (the loader refuses others)', () => {
    expect(STANCES.size).toBe(2 * (Object.keys(DIRECTIONAL_TOPICS).length + Object.keys(OTHER_TOPICS).length));
    for (const phrase of everything) for (const side of phrase.stance ?? []) expect(STANCES.has(side), phrase.id).toBe(true);
  });

  it('tags each phrase whose wording takes a side with that side, and no phrase says both sides', () => {
    const missing: string[] = [];
    for (const phrase of everything) {
      for (const side of claimsWorded(phrase.text)) if (!(phrase.stance ?? []).includes(side)) missing.push(`${phrase.id} ${side}`);
    }
    expect(missing).toEqual([]);
    const both = everything.filter((p) => new Set(claimsWorded(p.text).map(topicOf)).size < claimsWorded(p.text).length);
    expect(both.map((p) => p.id)).toEqual([]);
    // The wording the check reads covers every topic.
    expect(Object.keys(CLAIM_WORDING).sort()).toEqual([...Object.keys(DIRECTIONAL_TOPICS), 'composure'].sort());
  });

  it('gives a phrase only sides the readings it fits can claim (at its own angle)', () => {
    const dead: string[] = [];
    for (const phrase of everything) {
      if (phrase.spread >= 180 || phrase.stance === undefined) continue;
      const central = isCentrePhrase(phrase);
      const claims = new Set(claimsOf({ angle: phrase.angle, strength: central ? 20 : 60, central, traits: {} }));
      for (const side of phrase.stance) if (isDirectional(topicOf(side)) && !claims.has(side)) dead.push(`${phrase.id} ${side}`);
    }
    expect(dead).toEqual([]);
  });

  it('says whether each overview and summary sentence calls the style mild or firm', () => {
    const overviews = [...library.sections.overview, ...summaries].filter((p) => !isOwnPhrase(p) && p.evidence?.join() !== 'thin');
    expect(overviews.filter((p) => !(p.stance ?? []).some((s) => topicOf(s) === 'degree')).map((p) => p.id)).toEqual([]);
    for (const phrase of overviews) if (phrase.stance?.includes('degree:mild')) expect(isBlendPhrase(phrase), phrase.id).toBe(true);
  });

  it('gives each trait phrase the side its trait level takes', () => {
    const expected = { openness: ['novelty:seeks', 'novelty:wary'], conscientiousness: ['structure:orderly', 'structure:loose'], neuroticism: ['composure:rattled', 'composure:steady'] } as const;
    for (const phrase of everything) {
      for (const [trait, level] of Object.entries(phrase.traits ?? {})) {
        const [high, low] = expected[trait as keyof typeof expected];
        expect(phrase.stance ?? [], phrase.id).toContain(level.endsWith('high') ? high : low);
      }
    }
  });

  it('invents no life events and states no job-title guess as a fact', () => {
    const texts = everything.map((p) => p.text).join('\n');
    expect(texts).not.toMatch(/new baby|house move|first marathon|wedding|divorce|holiday/i);
    for (const phrase of everything.filter((p) => p.roles !== undefined)) {
      // A role phrase says what such roles usually bring, or advises the reader; it never says the person does something because of the title.
      expect(phrase.text, phrase.id).not.toMatch(/^\{first\} (is on calls|reads email between calls|works in|sells for a living and)/);
    }
    // A statement about the person in a role phrase says what the role usually brings, or that the person is likely to.
    for (const section of STATEMENT_SECTIONS) {
      for (const phrase of library.sections[section].filter((p) => p.roles !== undefined && /(^|, )\{first\} [a-z]+ /.test(p.text))) {
        expect(HEDGE.test(phrase.text) || /\b(usually|inclined to)\b/.test(phrase.text), `${phrase.id}: ${phrase.text}`).toBe(true);
      }
    }
  });
});

describe('the claims check over generated profiles', () => {
  it(`finds nothing in ${generatedReadings().length} profiles and their C2 pages: no opposite claims, nothing the reading does not claim, no near-duplicates`, () => {
    const report = checkGeneratedProfiles(shipped);
    expect(report.profiles).toBeGreaterThanOrEqual(2000);
    expect(report.findings.slice(0, 10)).toEqual([]);
    expect(report.counts).toEqual({ opposed: 0, worded: 0, unclaimed: 0, 'near-duplicate': 0 });
  }, 300_000);

  it('catches the contradictions a customer found on one page, by tag and by wording', () => {
    const reading = readingFrom({ angle: 45, strength: 70, confidence: 20 });
    const page = (...ids: string[]) => [{ list: 'meeting', phrases: ids.map((id) => byId.get(id) as Phrase), sentences: ids.map((id) => byId.get(id)?.text ?? '') }];
    // "Expect the conversation to wander" beside "A brisk, purposeful meeting suits this person".
    const wander = library.sections.meeting.find((p) => p.text.startsWith('Expect the conversation to wander'));
    const brisk = library.sections.meeting.find((p) => p.text.startsWith('A brisk, purposeful meeting'));
    expect(wander && brisk).toBeTruthy();
    const meeting = checkPage('trial', reading, page(wander?.id ?? '', brisk?.id ?? ''));
    expect(meeting.map((f) => f.kind)).toEqual(expect.arrayContaining(['opposed', 'worded']));
    // "takes direct feedback in their stride" beside "Don't open with criticism".
    const stride = everything.find((p) => p.text.includes('take direct feedback in their stride'));
    const criticism = library.sections.dont.find((p) => p.text.startsWith("Don't open with criticism"));
    expect(checkPage('trial', reading, page(stride?.id ?? '', criticism?.id ?? '')).some((f) => f.kind === 'opposed')).toBe(true);
    // Near-duplicates in one list.
    const twice = checkPage('trial', reading, [{ list: 'do', phrases: [], sentences: ['Give Dana plenty of notice before changes, meetings or deadlines.', 'Give Dana advance notice of meetings and deadlines.'] }]);
    expect(twice.map((f) => f.kind)).toEqual(['near-duplicate']);
    // A phrase taking a side the reading does not claim ("rarely pushes hard" for a D).
    const d = readingFrom({ angle: 135, strength: 85, confidence: 10 });
    const gentle = everything.find((p) => p.stance?.includes('drive:gentle') && p.spread < 180);
    expect(checkPage('founder', d, page(gentle?.id ?? '')).map((f) => f.kind)).toContain('unclaimed');
  });

  it('finds nothing on the demo people\'s pages, A1 and C2 alike', () => {
    for (const person of demoPeople()) {
      const reading = readEstimate(person.estimate, person.title);
      expect(checkPage(person.name, reading, composedPage(reading, shipped)), person.name).toEqual([]);
      expect(checkPage(person.name, reading, composedPage(reading, shipped, true)), person.name).toEqual([]);
      // C2 as served says nothing against the claims of the reading either.
      const c2 = JSON.stringify(composeConnectRecommendations({ firstName: person.name, estimate: person.estimate, title: person.title }, shipped));
      for (const side of claimsWorded(c2.replace(/<[^>]*>/g, ' '))) if (isDirectional(topicOf(side))) expect(reading.claims, `${person.name} ${side}`).toContain(side);
      const a1 = Object.values(describePersonality(shipped.phrases, person.estimate, person.name, { title: person.title }).content).flat().join(' ');
      for (const side of claimsWorded(a1)) if (isDirectional(topicOf(side))) expect(reading.claims, `${person.name} ${side}`).toContain(side);
    }
  });
});

describe('Connect\'s prose about a person never takes the other side of their reading', () => {
  const plain = (html: string): string => html.replace(/<[^>]*>/g, ' ').replaceAll('&#39;', "'");
  const against = (claims: readonly string[], side: string): boolean => claims.some((c) => topicOf(c) === topicOf(side) && c !== side);

  it('in the sample emails (C5) and in what the relationship advice (C3) says of each person alone, for every type, strength and level of evidence', () => {
    const found: string[] = [];
    for (const { code, angle } of DISC_TYPES) {
      for (const offset of [-9, 0, 9]) {
        for (const [strength, confidence] of [[60, 0.6], [15, 0.6], [60, 0.1]] as const) {
          const reader = withConfidence(partyAt('Noor', angle + offset, strength), confidence);
          const { claims } = readEstimate(reader.estimate);
          const emails = composeSampleEmails(reader, null, shipped.emails).flatMap((e) => plain(`${e.description} ${e.text}`).split(/(?<=[.!?])\s+/));
          for (const sentence of emails) for (const side of claimsWorded(sentence)) if (against(claims, side)) found.push(`C5 ${code}${offset} ${side}: ${sentence}`);
          for (const { angle: other } of DISC_TYPES) {
            const pair = composeRelationship(reader, partyAt('Kim', other, 60), shipped.relationship);
            const texts = [pair.overview, ...Object.values(pair).flatMap((topic) => (typeof topic === 'object' ? topic.phrases : []))];
            for (const sentence of texts.flatMap((t) => plain(t).split(/(?<=[.!?])\s+/)).filter((t) => t.includes('Noor') && !t.includes('Kim'))) {
              for (const side of claimsWorded(sentence)) if (against(claims, side)) found.push(`C3 ${code}${offset} ${side}: ${sentence}`);
            }
          }
        }
      }
    }
    expect([...new Set(found)]).toEqual([]);
  }, 120_000);
});
