import { describe, expect, it } from 'vitest';
import {
  composeRelationship,
  CONTACT_FALLBACK,
  FIRST_FALLBACK,
  RELATIONSHIP_KEYS,
  SECOND_FALLBACK,
} from '../../../src/content/connect/relationship.ts';
import {
  PAIRS,
  RELATIONSHIP_TOPICS,
  STYLES,
  placeholdersFor,
  validateRelationshipLibrary,
} from '../../../src/content/relationship/library.ts';
import { HEDGE } from '../../../src/content/hedge.ts';
import { composeConnectRecommendations } from '../../../src/content/connect/recommendations.ts';
import { TENTATIVE_CONFIDENCE } from '../../../src/content/reading.ts';
import type { Party } from '../../../src/content/party.ts';
import { AXIS, partyAt, tagsIn, TYPE_ANGLES, withConfidence } from './helpers.ts';
import { shipped } from '../../helpers/content.ts';

const library = shipped.relationship;

function allText(r: ReturnType<typeof composeRelationship>): string[] {
  return [r.overview, ...RELATIONSHIP_KEYS.flatMap((k) => r[k].phrases)];
}

describe('the relationship library', () => {
  it('covers every topic for every style and every pair, with distinct texts', () => {
    for (const topic of RELATIONSHIP_TOPICS) {
      for (const style of STYLES) expect(library.needs.filter((e) => e.topic === topic && e.style === style), `${topic} ${style}`).toHaveLength(1);
      for (const pair of PAIRS) expect(library.dynamics.filter((e) => e.topic === topic && e.pair === pair), `${topic} ${pair}`).toHaveLength(1);
    }
    // A pair sentence for each set of tentative people: the composer says no pair sentence at all
    // where the set it needs is missing.
    for (const pair of PAIRS) {
      const [p, q] = placeholdersFor(pair);
      const variants = library.overview.flatMap((e) => (e.kind === 'pair' && e.key === pair ? [[...e.tentative].sort().join('+')] : []));
      expect(variants.sort(), pair).toEqual(['', p, q, [p, q].sort().join('+')].sort());
    }
    const texts = [...library.needs, ...library.dynamics, ...library.overview].map((e) => e.text);
    expect(new Set(texts).size).toBe(texts.length);
  });

  it.each([
    [{ needs: [{ id: 'needs-001', topic: 'change', style: 'D', text: 'Hi {name}.' }], dynamics: [], overview: [] }, 'placeholder {name}'],
    [{ needs: [{ id: 'needs-001', topic: 'nope', style: 'D', text: '{self}.' }], dynamics: [], overview: [] }, 'unknown topic'],
    [{ needs: [], dynamics: [{ id: 'dynamics-001', topic: 'change', pair: 'DI', text: '{S} and {D}.' }], overview: [] }, 'placeholder {S}'],
    [{ needs: [], dynamics: [{ id: 'dynamics-001', topic: 'change', pair: 'DI', text: '{D} <i>x</i>' }], overview: [] }, 'markup'],
    [{ needs: [], dynamics: [], overview: [{ id: 'overview-001', kind: 'pair', key: 'XX', text: 'x' }] }, 'kind/key'],
    [{ needs: [{ id: 'needs-001', topic: 'change', style: 'D', text: '{self}' }, { id: 'needs-001', topic: 'change', style: 'I', text: '{other}' }], dynamics: [], overview: [] }, 'duplicate id'],
    [{ needs: [], dynamics: [{ id: 'dynamics-001', topic: 'change', pair: 'DI', text: '{D}.', loose: ['S'] }], overview: [] }, 'loose must list some of D, I'],
    [{ needs: [], dynamics: [{ id: 'dynamics-001', topic: 'change', pair: 'DI', text: '{D}.', if_careful: '{D}!' }], overview: [] }, 'if_careful needs loose'],
    [{ needs: [], dynamics: [{ id: 'dynamics-001', topic: 'change', pair: 'DI', text: '{D}.', loose: ['D'], if_careful: '{S}!' }], overview: [] }, 'if_careful: placeholder {S}'],
    [{ needs: [], dynamics: [{ id: 'dynamics-001', topic: 'change', pair: 'DI', text: '{D}.', if_loose: '{D}!' }], overview: [] }, 'if_loose needs careful'],
    [{ needs: [], dynamics: [{ id: 'dynamics-001', topic: 'change', pair: 'DI', text: '{D}.', careful: ['C'] }], overview: [] }, 'careful must list some of D, I'],
    [{ needs: [], dynamics: [{ id: 'dynamics-001', topic: 'change', pair: 'DI', text: '{D}.', loose: ['D'], careful: ['D'] }], overview: [] }, 'nobody can be both loose and careful'],
    [{ needs: [], dynamics: [], overview: [{ id: 'overview-001', kind: 'lean', key: 'SC', text: '{self}.', careful: ['self'], if_loose: '{other}.' }] }, 'if_loose: placeholder {other}'],
    [{ needs: [], dynamics: [], overview: [{ id: 'overview-001', kind: 'pair', key: 'DI', text: '{D} and {I}.', tentative: ['S'] }] }, 'tentative must list some of D, I'],
    [{ needs: [], dynamics: [], overview: [{ id: 'overview-001', kind: 'pair', key: 'DD', text: '{one} and {two}.', tentative: [] }] }, 'tentative must list some of one, two'],
    [
      { needs: [], dynamics: [], overview: [{ id: 'overview-001', kind: 'pair', key: 'DI', text: '{D} may.', tentative: ['I'] }, { id: 'overview-002', kind: 'pair', key: 'DI', text: '{I} may.', tentative: ['I'] }] },
      'a second pair entry for DI with the same tentative people',
    ],
    [{ needs: [], dynamics: [], overview: [{ id: 'overview-001', kind: 'tentative', key: 'any', text: '{blend} is unsure.' }] }, 'placeholder {blend}'],
    [{ needs: [{ id: 'needs-001', topic: 'change', style: 'D', text: '{self} wants it.', if_tentative: '{self} wants it now.' }], dynamics: [], overview: [] }, 'if_tentative must say it as a tendency'],
    [{ needs: [{ id: 'needs-001', topic: 'change', style: 'D', text: '{self} may want it.', if_tentative: '{self} may want it.' }], dynamics: [], overview: [] }, 'if_tentative repeats the firm text'],
    [{ needs: [{ id: 'needs-001', topic: 'change', style: 'D', text: '{self} wants it.', if_tentative: '{blend} may want it.' }], dynamics: [], overview: [] }, 'if_tentative: placeholder {blend}'],
    [
      { needs: [], dynamics: [{ id: 'dynamics-001', topic: 'change', pair: 'DI', text: '{D} pushes.<br>Talk it over.', if_tentative: '{D} may push.<br>Talk it over, {I}.' }], overview: [] },
      'if_tentative must keep the firm text\'s advice',
    ],
    [
      { needs: [], dynamics: [{ id: 'dynamics-001', topic: 'change', pair: 'DI', text: '{D} pushes.<br>Talk it over.', if_tentative: '{D} pushes.<br>Talk it over, {I} may.' }], overview: [] },
      'if_tentative must say it as a tendency',
    ],
    [
      { needs: [], dynamics: [{ id: 'dynamics-001', topic: 'change', pair: 'DI', text: '{I} forgets.<br>Write.', loose: ['I'], if_careful: '{I} checks.<br>Write.', if_tentative: '{I} may forget.<br>Write.' }], overview: [] },
      'if_careful_tentative is missing',
    ],
    [
      { needs: [], dynamics: [{ id: 'dynamics-001', topic: 'change', pair: 'DI', text: '{I} forgets.<br>Write.', if_tentative: '{I} may forget.<br>Write.', if_loose_tentative: '{I} may.<br>Write.' }], overview: [] },
      'if_loose_tentative needs if_loose and if_tentative',
    ],
  ])('rejects a broken entry (%#)', (raw, problem) => {
    expect(validateRelationshipLibrary(raw).problems.join('\n')).toContain(problem);
  });
});

describe('composeRelationship', () => {
  it('has an overview and ten keys of phrases for every pair of types', () => {
    for (const a of TYPE_ANGLES) {
      for (const b of TYPE_ANGLES) {
        const r = composeRelationship(partyAt('Ana', a), partyAt('Ben', b), shipped.relationship);
        expect(r.overview).toContain('Ana');
        expect(r.overview).toContain('Ben');
        for (const key of RELATIONSHIP_KEYS) {
          expect(r[key].phrases.length).toBeGreaterThanOrEqual(2);
          expect(r[key].phrases.join(' ')).toMatch(/Ana|Ben/);
        }
        for (const text of allText(r)) {
          expect(text).not.toMatch(/[{}]|\*\*/);
          for (const tag of tagsIn(text)) expect(tag).toMatch(/^(<br>|<\/?b>)$/);
        }
      }
    }
  });

  it('names both people and says what each needs from the other', () => {
    const r = composeRelationship(partyAt('Ana', AXIS.D), partyAt('Ben', AXIS.S), shipped.relationship);
    const [anaNeeds, benNeeds, bridge] = r.feedback.phrases;
    expect(anaNeeds).toMatch(/^Ana .*Ben/);
    expect(benNeeds).toMatch(/^Ben .*Ana/);
    expect(bridge).toContain('<br>');
  });

  it('reads differently for the same type, neighbours and opposites', () => {
    const same = composeRelationship(partyAt('Ana', AXIS.D), partyAt('Ben', AXIS.D), shipped.relationship);
    const neighbours = composeRelationship(partyAt('Ana', AXIS.D), partyAt('Ben', AXIS.I), shipped.relationship);
    const opposites = composeRelationship(partyAt('Ana', AXIS.D), partyAt('Ben', AXIS.S), shipped.relationship);
    expect(same.overview).toContain('same type');
    expect(opposites.overview).toContain('opposite styles');
    expect(neighbours.overview).not.toContain('opposite styles');
    for (const key of RELATIONSHIP_KEYS) {
      expect(new Set([same, neighbours, opposites].map((r) => r[key].phrases.join('|'))).size, key).toBe(3);
    }
    // A same-style pair is not told the same need twice with the names swapped.
    expect(same.change.phrases).toHaveLength(2);
  });

  it('gives each of the ten style pairs its own text', () => {
    const styles = ['D', 'I', 'S', 'C'] as const;
    const seen = new Set<string>();
    for (let i = 0; i < styles.length; i++) {
      for (let j = i; j < styles.length; j++) {
        const a = styles[i] ?? 'D';
        const b = styles[j] ?? 'D';
        seen.add(JSON.stringify(composeRelationship(partyAt('Ana', AXIS[a]), partyAt('Ben', AXIS[b]), shipped.relationship)));
      }
    }
    expect(seen.size).toBe(10);
  });

  it('puts each name where its style is described, whichever order they come in', () => {
    const ab = composeRelationship(partyAt('Ana', AXIS.D), partyAt('Ben', AXIS.S), shipped.relationship);
    const ba = composeRelationship(partyAt('Ben', AXIS.S), partyAt('Ana', AXIS.D), shipped.relationship);
    expect(ab.overview).toContain('Ana is fast, direct');
    expect(ba.overview).toContain('Ana is fast, direct');
    expect(ab.conflict.phrases[2]).toBe(ba.conflict.phrases[2]);
  });

  it('escapes names', () => {
    const r = composeRelationship(partyAt('<script>x</script>', AXIS.I), partyAt('Tom & "Jerry"', AXIS.C), shipped.relationship);
    const joined = allText(r).join(' ');
    expect(joined).not.toContain('<script>');
    expect(joined).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(joined).toContain('Tom &amp; &quot;Jerry&quot;');
  });

  it('uses a neutral fallback for a missing name, capitalised at a sentence start', () => {
    const one = composeRelationship(partyAt('Ana', AXIS.D), partyAt(null, AXIS.S), shipped.relationship);
    expect(one.overview).toContain(`Ana and ${CONTACT_FALLBACK}`);
    expect(one.change.phrases[1]).toMatch(/^Your contact /);
    const none = composeRelationship(partyAt(null, AXIS.D), partyAt('  ', AXIS.S), shipped.relationship);
    expect(none.overview).toMatch(/^The first person and the second person/);
    expect(allText(none).join(' ')).toContain(SECOND_FALLBACK);
    expect(allText(none).join(' ')).toContain(FIRST_FALLBACK);
  });

  it('mentions a blend', () => {
    const r = composeRelationship(partyAt('Ana', AXIS.D, 10), partyAt('Ben', AXIS.S), shipped.relationship);
    expect(r.overview).toContain('Ana has a <b>balanced style</b> and adapts');
  });

  it('does not call a blend "far apart" from anyone: near the centre the angle says little', () => {
    // 175° is a CD type, a C style (its type's first letter), as the person's profile says.
    const r = composeRelationship(partyAt(null, 175, 8), partyAt('Marisol', 15), shipped.relationship);
    expect(r.overview).toContain('balanced style');
    expect(r.overview).not.toMatch(/far apart|close neighbours|a quarter of the circle/);
    expect(r.overview).toContain('<b>opposite styles</b>');
  });

  it('is deterministic', () => {
    expect(composeRelationship(partyAt('Ana', 10), partyAt('Ben', 200), shipped.relationship)).toEqual(composeRelationship(partyAt('Ana', 10), partyAt('Ben', 200), shipped.relationship));
  });
});

describe('composeRelationship on the line between two styles', () => {
  it('treats two people of the same type as the same style', () => {
    // 89° and 91° are both DI, on either side of the line between the I and D quarters.
    const r = composeRelationship(partyAt('Ana', 89), partyAt('Ben', 91), shipped.relationship);
    expect(r.overview).toContain('same type');
    expect(r.overview).not.toContain('differ');
  });
});

describe('composeRelationship and the lean of each style', () => {
  it('tells a D who leans I from a D who leans C, and says nothing for a pure D', () => {
    const towardI = composeRelationship(partyAt('Ana', 110), partyAt('Ben', AXIS.S), shipped.relationship).overview;
    const towardC = composeRelationship(partyAt('Ana', 160), partyAt('Ben', AXIS.S), shipped.relationship).overview;
    const pure = composeRelationship(partyAt('Ana', AXIS.D), partyAt('Ben', AXIS.S), shipped.relationship).overview;
    expect(towardI).toContain('Ana pairs drive with charm');
    expect(towardC).toContain('Ana pairs drive with rigour');
    expect(pure).not.toMatch(/pairs drive/);
  });

  it('names the person once in a lean or blend sentence ("Ana\'s precision has a sharp edge, and Ana will…" read as machine-made)', () => {
    for (const entry of library.overview.filter((e) => e.kind === 'lean' || (e.kind === 'blend' && e.key === 'any'))) {
      expect(entry.text.match(/\{(self|blend)\}/g), entry.id).toHaveLength(1);
    }
  });

  it('has a lean sentence for every style and neighbour', () => {
    for (const key of ['DI', 'DC', 'ID', 'IS', 'SI', 'SC', 'CS', 'CD']) {
      expect(library.overview.some((e) => e.kind === 'lean' && e.key === key), key).toBe(true);
    }
  });
});

describe('composeRelationship for two blends', () => {
  it('says so once', () => {
    const r = composeRelationship(partyAt('Ana', 100, 10), partyAt('Ben', 300, 12), shipped.relationship);
    expect(r.overview).toMatch(/^Both Ana and Ben have <b>balanced styles<\/b>/);
    expect(r.overview).not.toContain('has a <b>balanced style</b>');
  });
});

describe('composeRelationship for two people of the same given name', () => {
  const named = (first: string, last: string | null, angle: number): Party => ({ ...partyAt(first, angle), lastName: last });

  it('tells them apart by last initial, never "Daniel and Daniel"', () => {
    const r = composeRelationship(named('Daniel', 'Park', AXIS.I), named('Daniel', 'Kim', AXIS.S), shipped.relationship);
    expect(r.overview).toMatch(/^Daniel P\. and Daniel K\. both/);
    for (const text of allText(r)) expect(text).not.toMatch(/Daniel (and|needs|wants|gets|should) Daniel\b/);
    expect(r.change.phrases[0]).toMatch(/^Daniel P\. needs Daniel K\. to/);
  });

  it('ignores case and accents in the given name, and keeps each as spelled', () => {
    const r = composeRelationship(named('José', 'Núñez', AXIS.D), named('jose', 'Ortiz', AXIS.C), shipped.relationship);
    expect(r.overview).toContain('José N.');
    expect(r.overview).toContain('jose O.');
  });

  it('uses the whole last name when the initials agree', () => {
    const r = composeRelationship(named('Daniel', 'Park', AXIS.D), named('Daniel', 'Parker', AXIS.S), shipped.relationship);
    expect(r.overview).toContain('Daniel Park ');
    expect(r.overview).toContain('Daniel Parker');
  });

  it('says "the first" and "the second" when the whole names agree, capitalised at a sentence start', () => {
    const r = composeRelationship(named('Daniel', 'Park', AXIS.I), named('Daniel', 'Park', AXIS.S), shipped.relationship);
    expect(r.overview).toMatch(/^The first Daniel and the second Daniel both/);
    // Lower case after a colon, as in running English.
    expect(r.overview).toContain('differ on pace: the first Daniel is quick');
    expect(r.change.phrases[1]).toMatch(/^The second Daniel needs warning from the first Daniel/);
    const noLast = composeRelationship(partyAt('Ana', AXIS.D), partyAt('Ana', AXIS.D), shipped.relationship);
    expect(noLast.overview).toMatch(/^The first Ana and the second Ana share/);
  });

  it('escapes the last name', () => {
    const r = composeRelationship(named('Ann', '<b>Lee', AXIS.D), named('Ann', 'Moss', AXIS.S), shipped.relationship);
    expect(r.overview).toContain('Ann &lt;.');
    expect(r.overview).not.toContain('<b>Lee');
  });
});

describe('composeRelationship and what a test measured', () => {
  /** A party whose personality test measured conscientiousness at `conscientiousness`. */
  const tested = (party: Party, conscientiousness: number): Party => ({
    ...party,
    estimate: { ...party.estimate, source: 'assessment', scores: { ...party.estimate.scores, conscientiousness } },
  });
  const dana = partyAt('Dana', AXIS.D);
  const marisol = partyAt('Marisol', AXIS.I);
  const said = (r: ReturnType<typeof composeRelationship>) => allText(r).join(' ');

  it('does not say a tested careful person loses track of details (a trial found "nobody finishes them" beside her test result)', () => {
    const guessed = said(composeRelationship(dana, marisol, shipped.relationship));
    expect(guessed).toContain('the risk is that nobody finishes them');
    expect(guessed).toContain('may both lose interest in the detail');
    const careful = said(composeRelationship(tested(dana, 0.6), marisol, shipped.relationship));
    expect(careful).not.toContain('nobody finishes them');
    expect(careful).not.toContain('lose interest in the detail');
    expect(careful).toContain('with one of them minding the details they finish them too');
    // Marisol, untested, may still miss a detail; a test measuring Dana as loose changes nothing.
    expect(careful).toContain('Marisol nods, starts with enthusiasm and may miss a detail');
    expect(said(composeRelationship(tested(dana, -0.4), marisol, shipped.relationship))).toContain('nobody finishes them');
  });

  it('leaves out what it would say of a careful I person\'s own habits, in either order', () => {
    for (const [one, two] of [[tested(marisol, 0.5), dana], [dana, tested(marisol, 0.5)]] as const) {
      const text = said(composeRelationship(one, two, shipped.relationship));
      expect(text).not.toContain('loses track of details');
      expect(text).not.toContain('follow-through Marisol finds dull');
      expect(text).not.toContain('may miss a detail');
    }
  });
});

describe('composeRelationship and what a test measured, both ways (a trial: an outgoing and careful taker, Kim)', () => {
  const tested = (party: Party, conscientiousness: number): Party => ({
    ...party,
    estimate: { ...party.estimate, source: 'assessment', scores: { ...party.estimate.scores, conscientiousness } },
  });
  const said = (r: ReturnType<typeof composeRelationship>) => allText(r).join(' ');
  // Kim as the test placed her: an Id (72°) at intensity 96, conscientiousness 0.75.
  const kim = partyAt('Kim', 72, 96);
  const priya = partyAt('Priya', AXIS.S);

  it('does not tell Priya to leave the details for later, nor that Kim changes her instructions on the move', () => {
    const guessed = said(composeRelationship(kim, priya, shipped.relationship));
    expect(guessed).toContain('leave the details for a follow-up note');
    expect(guessed).toContain('Kim gives instructions on the move and changes them');
    for (const [one, two] of [[tested(kim, 0.75), priya], [priya, tested(kim, 0.75)]] as const) {
      const text = said(composeRelationship(one, two, shipped.relationship));
      expect(text).not.toContain('leave the details for a follow-up note');
      expect(text).not.toContain('on the move and changes them');
      expect(text).not.toContain('so nothing is forgotten');
      expect(text).not.toContain('Priya the follow-through');
      expect(text).toContain('then to confirm the details in writing, where Kim will check them');
      expect(text).toContain('Kim gives instructions quickly and in conversation');
    }
  });

  it('does not set a tested careful I person\'s "big picture" against a C person\'s details (a trial: Priya and Jordan)', () => {
    const jordan = partyAt('Jordan', AXIS.C);
    const guessed = said(composeRelationship(kim, jordan, shipped.relationship));
    expect(guessed).toContain('Kim sees the big picture and Jordan the details');
    expect(guessed).toContain('Kim speaks in broad strokes and feelings');
    for (const [one, two] of [[tested(kim, 0.75), jordan], [jordan, tested(kim, 0.75)]] as const) {
      const text = said(composeRelationship(one, two, shipped.relationship));
      expect(text).not.toMatch(/big picture|broad strokes/);
      expect(text).toContain('Kim brings the ideas and the energy and Jordan the method');
      expect(text).toContain('Kim talks with energy and feeling; Jordan wants the facts first');
    }
    // Thin evidence on Jordan's side: the hedged careful wording.
    const hedged = said(composeRelationship(tested(kim, 0.75), withConfidence(jordan, (TENTATIVE_CONFIDENCE - 5) / 100), shipped.relationship));
    expect(hedged).not.toMatch(/big picture|broad strokes/);
    expect(hedged).toContain('Kim may bring the ideas and the energy and Jordan the method');
    expect(hedged).toContain('Kim is likely to talk with energy and feeling and Jordan to want the facts first');
    // A C person whom a test measured as loose is not said to give detailed, thorough feedback,
    // and what holds of them instead is said.
    const measuredLoose = said(composeRelationship(kim, tested(jordan, -0.6), shipped.relationship));
    expect(measuredLoose).not.toMatch(/Jordan the details|Jordan's detail as care|wants details and facts/);
    expect(measuredLoose).toContain('Kim brings the ideas and Jordan the hard questions');
    expect(measuredLoose).toContain('Jordan gives feedback that is plain and sceptical');
    expect(composeRelationship(kim, tested(jordan, -0.6), shipped.relationship).overview).toContain('Jordan is reserved, questioning and sceptical');
  });

  it('calls nobody precise, rigorous or careful in the overview whom a test measured as loose, whatever their type', () => {
    for (const angle of TYPE_ANGLES) {
      for (const [one, two] of [[tested(partyAt('Lee', angle), -0.6), partyAt('Dan', AXIS.D)], [partyAt('Dan', AXIS.D), tested(partyAt('Lee', angle), -0.6)]] as const) {
        const overview = composeRelationship(one, two, shipped.relationship).overview;
        expect(overview, `${angle}`).not.toMatch(/precis|rigour|care for detail|careful|thorough/);
      }
    }
  });

  it('says of nobody whom a test measured as careful that details slip, on any topic, whatever their type', () => {
    for (const angle of TYPE_ANGLES) {
      for (const other of TYPE_ANGLES) {
        const r = composeRelationship(tested(partyAt('Lee', angle), 0.75), partyAt('Dan', other), shipped.relationship);
        // Said of the pair or of Lee: the untested Dan may still be called loose on his own.
        for (const text of allText(r)) expect(text, `${angle} ${other}`).not.toMatch(/nobody finishes|Lee (loses|may lose) track|follow-through Lee|Lee [^.;]*miss a detail|both [^.;]*lose interest in the detail/);
      }
    }
  });

  it('keeps something to say on every topic, whatever a test measured of either person', () => {
    for (const a of TYPE_ANGLES) {
      for (const b of TYPE_ANGLES) {
        for (const [ca, cb] of [[0.75, null], [null, 0.75], [-0.6, null], [null, -0.6], [0.75, -0.6], [-0.6, -0.6], [0.75, 0.75]] as const) {
          const one = ca === null ? partyAt('Ana', a) : tested(partyAt('Ana', a), ca);
          const two = cb === null ? partyAt('Ben', b) : tested(partyAt('Ben', b), cb);
          const r = composeRelationship(one, two, shipped.relationship);
          for (const key of RELATIONSHIP_KEYS) expect(r[key].phrases.length, `${a} ${b} ${ca} ${cb} ${key}`).toBeGreaterThanOrEqual(1);
        }
      }
    }
  });

  it('does not call a person careful whom a test measured as loose, and says what holds instead', () => {
    const lee = partyAt('Lee', AXIS.C);
    const ben = partyAt('Ben', AXIS.C);
    expect(composeRelationship(lee, ben, shipped.relationship).overview).toContain('share a <b>careful, analytical style</b>');
    const loose = said(composeRelationship(tested(lee, -0.6), ben, shipped.relationship));
    expect(loose).toContain('share a <b>reserved, analytical style</b>');
    expect(loose).not.toMatch(/careful, analytical|produce careful, accurate work|write thorough instructions|expertise and careful work/);
    // A measure on the careful side, or a text estimate, changes nothing.
    expect(said(composeRelationship(tested(lee, 0.6), ben, shipped.relationship))).toBe(said(composeRelationship(lee, ben, shipped.relationship)));
    const sam = partyAt('Sam', AXIS.S);
    expect(said(composeRelationship(sam, tested(lee, -0.6), shipped.relationship))).toContain('They make an unhurried pair');
    expect(said(composeRelationship(sam, tested(lee, -0.6), shipped.relationship))).not.toContain('careful, dependable pair');
    // The lean of an S toward C says "a care for detail" only of someone not measured as loose.
    const leaning = partyAt('Sue', 292.5);
    expect(composeRelationship(leaning, partyAt('Dan', AXIS.D), shipped.relationship).overview).toContain('Sue is steady with a care for detail');
    const measured = composeRelationship(tested(leaning, -0.5), partyAt('Dan', AXIS.D), shipped.relationship).overview;
    expect(measured).not.toContain('care for detail');
    expect(measured).toContain('Sue is steady with a leaning toward caution');
  });
});

describe('composeRelationship and a tentative placement (thin evidence, as the person\'s own profile reads it)', () => {
  const thin = (party: Party): Party => withConfidence(party, (TENTATIVE_CONFIDENCE - 5) / 100);
  const dana = partyAt('Dana', AXIS.D);
  const marisol = partyAt('Marisol', AXIS.I);

  it('has a pair text for every set of tentative people, each hedged, and notes for one and for both', () => {
    for (const pair of PAIRS) {
      const [x = '', y = ''] = pair[0] === pair[1] ? ['one', 'two'] : [pair[0], pair[1]];
      for (const unsure of [[], [x], [y], [x, y]]) {
        const found = library.overview.filter((e) => e.kind === 'pair' && e.key === pair && [...e.tentative].sort().join() === [...unsure].sort().join());
        expect(found, `${pair} ${unsure.join('+')}`).toHaveLength(1);
        const text = found[0]?.text ?? '';
        if (unsure.length > 0) expect(text, `${pair} ${unsure.join('+')}`).toMatch(/\bmay\b/);
        else expect(text, pair).not.toMatch(/\bmay\b|writing suggests/);
      }
    }
    expect(library.overview.some((e) => e.kind === 'tentative' && e.key === 'any')).toBe(true);
    expect(library.overview.some((e) => e.kind === 'tentative' && e.key === 'both')).toBe(true);
  });

  it('hedges what it says of the tentative person and keeps what it says of the confident one firm, in either order', () => {
    const firm = 'Dana is <b>fast and outgoing</b>, with an eye on the result';
    for (const r of [composeRelationship(dana, thin(marisol), shipped.relationship), composeRelationship(thin(marisol), dana, shipped.relationship)]) {
      expect(r.overview).toContain(firm);
      expect(r.overview).toContain('Marisol may be just as quick and outgoing');
      expect(r.overview).toContain('If Marisol is as sociable as their writing suggests');
      expect(r.overview).toContain("There is not much of Marisol's writing to go on");
      expect(r.overview).toMatch(/<b>tentative<\/b>/);
      // Nothing states the pairing as fact: no "both fast and outgoing" for the two of them.
      expect(r.overview).not.toContain('Dana and Marisol are both');
      expect(r.overview).not.toContain('Marisol and Dana are both');
      expect(r.overview).not.toMatch(/Dana may|Dana's writing|Dana is as/);
    }
    // The other way round: Dana tentative, Marisol confident.
    const other = composeRelationship(thin(dana), marisol, shipped.relationship).overview;
    expect(other).toContain('Marisol is <b>fast and outgoing</b>, with an eye on the people and the buzz; Dana may be');
    expect(other).toContain('If Dana is as driven as their writing suggests');
    expect(other).not.toMatch(/Marisol may|Marisol's writing/);
  });

  it('says nothing of a tentative person\'s angle: no relation, no lean, and no "balanced style"', () => {
    const leaning = composeRelationship(partyAt('Dana', AXIS.S), thin(partyAt('Marisol', 110)), shipped.relationship).overview;
    expect(composeRelationship(partyAt('Dana', AXIS.S), partyAt('Marisol', 110), shipped.relationship).overview).toContain('Marisol pairs drive with charm');
    expect(leaning).not.toContain('pairs drive with charm');
    const same = composeRelationship(dana, thin(partyAt('Marisol', AXIS.D)), shipped.relationship).overview;
    expect(composeRelationship(dana, partyAt('Marisol', AXIS.D), shipped.relationship).overview).toContain('same type');
    expect(same).not.toContain('same type');
    expect(same).toContain('Dana has a <b>direct, results-first style</b>, and Marisol may share it');
    // A placement near the centre on thin evidence is not a balanced style: the evidence is thin, not the style.
    const nearCentre = composeRelationship(dana, thin(partyAt('Marisol', AXIS.I, 10)), shipped.relationship).overview;
    expect(nearCentre).not.toContain('balanced style');
    expect(nearCentre).toContain("There is not much of Marisol's writing to go on");
    // A confident blend beside a tentative person keeps its own note.
    expect(composeRelationship(partyAt('Dana', AXIS.D, 10), thin(marisol), shipped.relationship).overview).toContain('Dana has a <b>balanced style</b>');
  });

  it('hedges a same-style pair for whichever of the two is tentative, and says so once when both are', () => {
    expect(composeRelationship(thin(partyAt('Ana', AXIS.C)), partyAt('Ben', AXIS.C), shipped.relationship).overview).toMatch(/^Ben has a <b>careful, analytical style<\/b>, and Ana may share it\. If Ana is as precise/);
    const both = composeRelationship(thin(dana), thin(marisol), shipped.relationship).overview;
    expect(both).toMatch(/^Dana and Marisol may both be <b>fast and outgoing<\/b>, going by short samples of their writing/);
    expect(both.match(/There is not much/g)).toHaveLength(1);
    expect(both).toContain('There is not much writing from Dana or Marisol to go on');
  });

  it('still gives the careful variant where a test measured the confident person as careful', () => {
    const careful: Party = { ...dana, estimate: { ...dana.estimate, source: 'assessment', scores: { ...dana.estimate.scores, conscientiousness: 0.6 } } };
    const r = composeRelationship(careful, thin(marisol), shipped.relationship).overview;
    expect(r).toContain('Marisol may be just as quick and outgoing');
    expect(r).not.toContain('nobody finishes them');
    expect(r).toContain('with one of them minding the details they finish them too');
  });

  it('uses the individual profile\'s threshold: C3 hedges exactly where C2 opens as tentative', () => {
    for (const confidence of [0.05, (TENTATIVE_CONFIDENCE - 1) / 100, TENTATIVE_CONFIDENCE / 100, 0.3, 0.95]) {
      const person = withConfidence(marisol, confidence);
      const hedged = composeRelationship(dana, person, shipped.relationship).overview.includes('<b>tentative</b>');
      expect(hedged, String(confidence)).toBe(/tentative/.test(composeConnectRecommendations(person, shipped).overview));
      expect(hedged, String(confidence)).toBe(confidence * 100 < TENTATIVE_CONFIDENCE);
    }
  });

  it('gives two confident people today\'s firm text, whatever their evidence level above the threshold', () => {
    const r = composeRelationship(dana, marisol, shipped.relationship);
    expect(r.overview).toBe(
      'Dana and Marisol are both <b>fast and outgoing</b>, and differ on focus: Dana is after the result, Marisol after the people and the buzz. Together they start things well; the risk is that nobody finishes them.',
    );
    const moderate = (party: Party): Party => withConfidence(party, TENTATIVE_CONFIDENCE / 100);
    expect(composeRelationship(moderate(dana), moderate(marisol), shipped.relationship)).toEqual(r);
    expect(composeRelationship(partyAt('Ana', AXIS.D), partyAt('Ben', AXIS.S), shipped.relationship).overview).toBe(
      'Ana and Ben have <b>opposite styles</b>: Ana is fast, direct and task-driven; Ben is patient, gentle and people-minded. The pairing works well once Ana slows down enough to hear Ben, and Ben speaks up enough to be heard.',
    );
  });

  /** The description of a topic's phrase: a dynamics text before its advice, or a whole needs text. */
  const described = (phrase: string): string => phrase.split('<br>')[0] ?? '';
  const advice = (phrase: string): string => phrase.split('<br>').slice(1).join('<br>');

  it('hedges every topic\'s description of a tentative person, and keeps the advice and what the confident one needs', () => {
    for (const pair of PAIRS) {
      const [x = 'D', y = 'D'] = [pair[0], pair[1]] as (keyof typeof AXIS)[];
      const ana = partyAt('Ana', AXIS[x]);
      const ben = partyAt('Ben', AXIS[y]);
      for (const [one, two] of [[ana, thin(ben)], [thin(ben), ana], [thin(ana), thin(ben)]] as const) {
        const unsure = composeRelationship(one, two, shipped.relationship);
        const firm = composeRelationship(one.firstName === 'Ana' ? ana : ben, two.firstName === 'Ana' ? ana : ben, shipped.relationship);
        const tentative = [one, two].map((p) => p.estimate.confidence.extraversion * 100 < TENTATIVE_CONFIDENCE);
        for (const key of RELATIONSHIP_KEYS) {
          const [hedged, said] = [unsure[key].phrases, firm[key].phrases];
          const where = `${pair} ${one.firstName}${tentative[0] ? '?' : ''}/${two.firstName}${tentative[1] ? '?' : ''} ${key}`;
          expect(hedged.length, where).toBe(said.length);
          hedged.forEach((phrase, index) => {
            const before = said[index] ?? '';
            expect(advice(phrase), where).toBe(advice(before));
            const dynamics = index === hedged.length - 1;
            // Needs: the first phrase is the first person's, the second (different styles only) the second's.
            const aboutTentative = dynamics ? tentative.some(Boolean) : tentative[index] === true;
            if (!aboutTentative) {
              expect(phrase, where).toBe(before);
              return;
            }
            expect(described(phrase), where).toMatch(HEDGE);
            // Only a sentence already written as a tendency keeps its firm wording.
            if (phrase === before) expect(described(before), where).toMatch(/\bmay\b/);
          });
        }
      }
    }
    const unchanged = [...library.needs, ...library.dynamics].filter((e) => e.ifTentative === undefined).map((e) => e.id);
    expect(unchanged).toEqual(['dynamics-041']);
  });

  it('does not state the trial\'s tentative person\'s traits as fact beside a tested one (Priya, from 52 words, and Kim)', () => {
    const kim: Party = { ...partyAt('Kim', 72, 96), estimate: { ...partyAt('Kim', 72, 96).estimate, source: 'assessment', scores: { ...partyAt('Kim', 72, 96).estimate.scores, conscientiousness: 0.75 } } };
    const priya = thin(partyAt('Priya', AXIS.S));
    for (const r of [composeRelationship(kim, priya, shipped.relationship), composeRelationship(priya, kim, shipped.relationship)]) {
      const said = allText(r).join(' ');
      for (const firm of ['Priya tends to go quiet rather than argue', 'Priya takes feedback to heart', 'Under stress Priya withdraws and quietly takes on too much', 'Priya rarely speaks first in a full room']) {
        expect(said).not.toContain(firm);
      }
      expect(r.conflict.phrases).toContain('Priya may go quiet rather than argue; if so, Kim has to ask directly and privately what is bothering Priya, and then listen.');
      expect(said).toContain('Priya may take feedback to heart, so Kim should give it calmly');
      expect(said).toContain('Under stress Priya may withdraw and quietly take on too much; Kim helps by asking directly and taking one task off the pile.');
      expect(said).toContain('Priya may rarely speak first in a full room');
      // Kim took the test: what she needs stays firm, and her measured care still picks the careful variant, hedged for Priya.
      expect(said).toContain('Kim wants Priya to make room for conversation and to react to ideas with some energy, then to confirm the details in writing, where Kim will check them.');
      expect(said).toContain('Kim gives instructions quickly and in conversation, and Priya may follow them to the letter and not ask about what was left unsaid.');
      // What Kim needs is not hedged; the dynamics describe both, so they are, as one wording.
      const kimNeeds = RELATIONSHIP_KEYS.flatMap((k) => r[k].phrases.slice(0, -1)).filter((p) => !/Priya (may|is likely to)|best from Priya|to Priya,/.test(p));
      // Her stress and work needs in their careful wording (the plain ones call her loose with details).
      expect(kimNeeds).toHaveLength(10);
      expect(said).toContain('Under stress Kim talks more and takes on too much, though the details stay in hand');
      expect(said).toContain('and leaves Kim to see it through');
      expect(said).not.toMatch(/Kim [^.]*loses track of details|follow-through Kim finds dull/);
      for (const phrase of kimNeeds) expect(phrase).not.toMatch(HEDGE);
      expect(said).not.toContain('on the move and changes them');
    }
  });

  it('gives confident people the firm topics, word for word, whatever the other\'s evidence or test', () => {
    const r = composeRelationship(dana, marisol, shipped.relationship);
    expect(r.conflict.phrases).toEqual([
      'Dana wants disagreements raised openly and quickly; Marisol earns respect by holding a position with facts rather than softening it.',
      'Marisol takes conflict personally at first; Dana should separate the issue from the relationship and say so in as many words.',
      'Dana argues hard and moves on; Marisol may feel the argument long after Dana has forgotten it.<br>Dana should make a point of closing the disagreement warmly; Marisol should raise a grievance early instead of letting it grow.',
    ]);
    // The library without its hedged wordings composes the same text for confident people.
    const strip = <T extends object>(e: T): T => Object.fromEntries(Object.entries(e).filter(([k]) => !/Tentative$/.test(k))) as T;
    const firmOnly = { ...library, needs: library.needs.map(strip), dynamics: library.dynamics.map(strip) };
    const tested = (p: Party, conscientiousness: number): Party => ({ ...p, estimate: { ...p.estimate, source: 'assessment', scores: { ...p.estimate.scores, conscientiousness } } });
    for (const angle of [...TYPE_ANGLES, 0, 100, 200, 300]) {
      for (const other of [partyAt('Ben', angle), partyAt('Ben', angle, 10), tested(partyAt('Ben', angle), 0.6), tested(partyAt('Ben', angle), -0.6), withConfidence(partyAt('Ben', angle), TENTATIVE_CONFIDENCE / 100)]) {
        for (const one of [dana, marisol, tested(marisol, 0.7), partyAt('Ana', AXIS.C), tested(partyAt('Ana', AXIS.C), -0.5)]) {
          expect(composeRelationship(one, other, shipped.relationship)).toEqual(composeRelationship(one, other, firmOnly));
        }
        expect(composeRelationship(dana, thin(other), shipped.relationship)).not.toEqual(composeRelationship(dana, thin(other), firmOnly));
      }
    }
  });
});
