import { describe, expect, it } from 'vitest';
import {
  composeRelationship,
  CONTACT_FALLBACK,
  FIRST_FALLBACK,
  RELATIONSHIP_KEYS,
  SECOND_FALLBACK,
} from '../../../src/content/connect/relationship.ts';
import {
  loadRelationshipLibrary,
  PAIRS,
  RELATIONSHIP_TOPICS,
  STYLES,
  validateRelationshipLibrary,
} from '../../../src/content/relationship/library.ts';
import type { Party } from '../../../src/content/party.ts';
import { AXIS, partyAt, tagsIn, TYPE_ANGLES } from './helpers.ts';

const library = loadRelationshipLibrary();

function allText(r: ReturnType<typeof composeRelationship>): string[] {
  return [r.overview, ...RELATIONSHIP_KEYS.flatMap((k) => r[k].phrases)];
}

describe('the relationship library', () => {
  it('covers every topic for every style and every pair, with distinct texts', () => {
    for (const topic of RELATIONSHIP_TOPICS) {
      for (const style of STYLES) expect(library.needs.filter((e) => e.topic === topic && e.style === style), `${topic} ${style}`).toHaveLength(1);
      for (const pair of PAIRS) expect(library.dynamics.filter((e) => e.topic === topic && e.pair === pair), `${topic} ${pair}`).toHaveLength(1);
    }
    for (const pair of PAIRS) expect(library.overview.some((e) => e.kind === 'pair' && e.key === pair), pair).toBe(true);
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
  ])('rejects a broken entry (%#)', (raw, problem) => {
    expect(validateRelationshipLibrary(raw).problems.join('\n')).toContain(problem);
  });
});

describe('composeRelationship', () => {
  it('has an overview and ten keys of phrases for every pair of types', () => {
    for (const a of TYPE_ANGLES) {
      for (const b of TYPE_ANGLES) {
        const r = composeRelationship(partyAt('Ana', a), partyAt('Ben', b));
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
    const r = composeRelationship(partyAt('Ana', AXIS.D), partyAt('Ben', AXIS.S));
    const [anaNeeds, benNeeds, bridge] = r.feedback.phrases;
    expect(anaNeeds).toMatch(/^Ana .*Ben/);
    expect(benNeeds).toMatch(/^Ben .*Ana/);
    expect(bridge).toContain('<br>');
  });

  it('reads differently for the same type, neighbours and opposites', () => {
    const same = composeRelationship(partyAt('Ana', AXIS.D), partyAt('Ben', AXIS.D));
    const neighbours = composeRelationship(partyAt('Ana', AXIS.D), partyAt('Ben', AXIS.I));
    const opposites = composeRelationship(partyAt('Ana', AXIS.D), partyAt('Ben', AXIS.S));
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
        seen.add(JSON.stringify(composeRelationship(partyAt('Ana', AXIS[a]), partyAt('Ben', AXIS[b]))));
      }
    }
    expect(seen.size).toBe(10);
  });

  it('puts each name where its style is described, whichever order they come in', () => {
    const ab = composeRelationship(partyAt('Ana', AXIS.D), partyAt('Ben', AXIS.S));
    const ba = composeRelationship(partyAt('Ben', AXIS.S), partyAt('Ana', AXIS.D));
    expect(ab.overview).toContain('Ana is fast, direct');
    expect(ba.overview).toContain('Ana is fast, direct');
    expect(ab.conflict.phrases[2]).toBe(ba.conflict.phrases[2]);
  });

  it('escapes names', () => {
    const r = composeRelationship(partyAt('<script>x</script>', AXIS.I), partyAt('Tom & "Jerry"', AXIS.C));
    const joined = allText(r).join(' ');
    expect(joined).not.toContain('<script>');
    expect(joined).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(joined).toContain('Tom &amp; &quot;Jerry&quot;');
  });

  it('uses a neutral fallback for a missing name, capitalised at a sentence start', () => {
    const one = composeRelationship(partyAt('Ana', AXIS.D), partyAt(null, AXIS.S));
    expect(one.overview).toContain(`Ana and ${CONTACT_FALLBACK}`);
    expect(one.change.phrases[1]).toMatch(/^Your contact /);
    const none = composeRelationship(partyAt(null, AXIS.D), partyAt('  ', AXIS.S));
    expect(none.overview).toMatch(/^The first person and the second person/);
    expect(allText(none).join(' ')).toContain(SECOND_FALLBACK);
    expect(allText(none).join(' ')).toContain(FIRST_FALLBACK);
  });

  it('mentions a blend', () => {
    const r = composeRelationship(partyAt('Ana', AXIS.D, 10), partyAt('Ben', AXIS.S));
    expect(r.overview).toContain('Ana has a <b>balanced style</b> and adapts');
  });

  it('does not call a blend near the D/C line "far apart" from an I while the pair text says both are outgoing', () => {
    const r = composeRelationship(partyAt(null, 175, 8), partyAt('Marisol', 15));
    expect(r.overview).toContain('balanced style');
    expect(r.overview).not.toMatch(/far apart|close neighbours|a quarter of the circle/);
    expect(r.overview).toContain('differ on focus: your contact is after the result');
  });

  it('is deterministic', () => {
    expect(composeRelationship(partyAt('Ana', 10), partyAt('Ben', 200))).toEqual(composeRelationship(partyAt('Ana', 10), partyAt('Ben', 200)));
  });
});

describe('composeRelationship on the line between two styles', () => {
  it('treats two people of the same type as the same style', () => {
    // 89° and 91° are both DI, on either side of the line between the I and D quarters.
    const r = composeRelationship(partyAt('Ana', 89), partyAt('Ben', 91));
    expect(r.overview).toContain('same type');
    expect(r.overview).not.toContain('differ');
  });
});

describe('composeRelationship and the lean of each style', () => {
  it('tells a D who leans I from a D who leans C, and says nothing for a pure D', () => {
    const towardI = composeRelationship(partyAt('Ana', 110), partyAt('Ben', AXIS.S)).overview;
    const towardC = composeRelationship(partyAt('Ana', 160), partyAt('Ben', AXIS.S)).overview;
    const pure = composeRelationship(partyAt('Ana', AXIS.D), partyAt('Ben', AXIS.S)).overview;
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
    const r = composeRelationship(partyAt('Ana', 100, 10), partyAt('Ben', 300, 12));
    expect(r.overview).toMatch(/^Both Ana and Ben have <b>balanced styles<\/b>/);
    expect(r.overview).not.toContain('has a <b>balanced style</b>');
  });
});

describe('composeRelationship for two people of the same given name', () => {
  const named = (first: string, last: string | null, angle: number): Party => ({ ...partyAt(first, angle), lastName: last });

  it('tells them apart by last initial, never "Daniel and Daniel"', () => {
    const r = composeRelationship(named('Daniel', 'Park', AXIS.I), named('Daniel', 'Kim', AXIS.S));
    expect(r.overview).toMatch(/^Daniel P\. and Daniel K\. both/);
    for (const text of allText(r)) expect(text).not.toMatch(/Daniel (and|needs|wants|gets|should) Daniel\b/);
    expect(r.change.phrases[0]).toMatch(/^Daniel P\. needs Daniel K\. to/);
  });

  it('ignores case and accents in the given name, and keeps each as spelled', () => {
    const r = composeRelationship(named('José', 'Núñez', AXIS.D), named('jose', 'Ortiz', AXIS.C));
    expect(r.overview).toContain('José N.');
    expect(r.overview).toContain('jose O.');
  });

  it('uses the whole last name when the initials agree', () => {
    const r = composeRelationship(named('Daniel', 'Park', AXIS.D), named('Daniel', 'Parker', AXIS.S));
    expect(r.overview).toContain('Daniel Park ');
    expect(r.overview).toContain('Daniel Parker');
  });

  it('says "the first" and "the second" when the whole names agree, capitalised at a sentence start', () => {
    const r = composeRelationship(named('Daniel', 'Park', AXIS.I), named('Daniel', 'Park', AXIS.S));
    expect(r.overview).toMatch(/^The first Daniel and the second Daniel both/);
    // Lower case after a colon, as in running English.
    expect(r.overview).toContain('differ on pace: the first Daniel is quick');
    expect(r.change.phrases[1]).toMatch(/^The second Daniel needs warning from the first Daniel/);
    const noLast = composeRelationship(partyAt('Ana', AXIS.D), partyAt('Ana', AXIS.D));
    expect(noLast.overview).toMatch(/^The first Ana and the second Ana share/);
  });

  it('escapes the last name', () => {
    const r = composeRelationship(named('Ann', '<b>Lee', AXIS.D), named('Ann', 'Moss', AXIS.S));
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
    const guessed = said(composeRelationship(dana, marisol));
    expect(guessed).toContain('the risk is that nobody finishes them');
    expect(guessed).toContain('may both lose interest in the detail');
    const careful = said(composeRelationship(tested(dana, 0.6), marisol));
    expect(careful).not.toContain('nobody finishes them');
    expect(careful).not.toContain('lose interest in the detail');
    expect(careful).toContain('with one of them minding the details they finish them too');
    // Marisol, untested, may still miss a detail; a test measuring Dana as loose changes nothing.
    expect(careful).toContain('Marisol nods, starts with enthusiasm and may miss a detail');
    expect(said(composeRelationship(tested(dana, -0.4), marisol))).toContain('nobody finishes them');
  });

  it('leaves out what it would say of a careful I person\'s own habits, in either order', () => {
    for (const [one, two] of [[tested(marisol, 0.5), dana], [dana, tested(marisol, 0.5)]] as const) {
      const text = said(composeRelationship(one, two));
      expect(text).not.toContain('loses track of details');
      expect(text).not.toContain('follow-through Marisol finds dull');
      expect(text).not.toContain('may miss a detail');
    }
  });
});
