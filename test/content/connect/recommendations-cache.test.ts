import { describe, expect, it } from 'vitest';
import { generatedPeople } from '../../../src/content/advice-overlap.ts';
import { composeConnectRecommendations, type ConnectRecommendations } from '../../../src/content/connect/recommendations.ts';
import { RecommendationsCache } from '../../../src/content/connect/recommendations-cache.ts';
import { shipped } from '../../helpers/content.ts';

/**
 * C2's recommendations composed once per reading (src/content/connect/recommendations-cache.ts)
 * are, for every caller, byte for byte what composing anew gives: the name put in afterwards goes
 * where composing would have put it, escaped the same way, and one person's name never reaches
 * another's answer.
 */
const people = generatedPeople(120, 31);
// Names that escaping, cleaning, the bold markers and replacement patterns treat specially, the cache's own mark, and none at all.
const NAMES: ReadonlyArray<string | null> = ['Maya', null, '', 'José', 'A&B <i>x</i>', 'O\'Neil "Q"', '**Bo**', '{first}', '  Ann   Lee ', 'X\uE000Y', '&amp;', 'Jo$&$\'$$n'];

function strings(r: ConnectRecommendations): string[] {
  const blocks = [r.emailing, r.communication, r.motivations, r.behavior, r.buildingTrust, r.selling, r.workingTogether];
  return [r.overview, ...r.qualities, ...blocks.flatMap((b) => [b.overview, ...b.phrases])];
}

describe('RecommendationsCache', () => {
  it('answers every name exactly as composing anew does, when it composes and when it reuses', () => {
    const cache = new RecommendationsCache(() => shipped);
    for (let round = 0; round < 5; round += 1) {
      for (const [i, person] of people.entries()) {
        // Each reading meets each name in turn, so most answers reuse a composition made for another name.
        const firstName = NAMES[(i + round) % NAMES.length] ?? null;
        const party = { firstName, estimate: person.estimate, title: person.title };
        expect(cache.compose(party), `${person.label} ${String(firstName)}`).toEqual(composeConnectRecommendations(party, shipped));
      }
    }
    const { hits, misses } = cache.stats;
    expect(hits + misses).toBe(5 * people.length);
    // Most people's later answers came from a kept composition.
    expect(hits).toBeGreaterThan(people.length);
  });

  it('keeps a reading from its second answer and never lets one caller see another caller’s name or changes', () => {
    const cache = new RecommendationsCache(() => shipped);
    const person = people.find((p) => composeConnectRecommendations({ firstName: 'Maya', estimate: p.estimate, title: p.title }, shipped).overview.includes('Maya'));
    if (!person) throw new Error('no generated person whose overview names them');
    const first = cache.compose({ firstName: 'Maya', estimate: person.estimate, title: person.title });
    // A reading is kept from its second answer on.
    expect(cache.stats).toMatchObject({ hits: 0, misses: 1, size: 0 });
    const second = cache.compose({ firstName: 'Theo', estimate: person.estimate, title: person.title });
    expect(cache.stats).toMatchObject({ hits: 0, misses: 2, size: 1 });
    const third = cache.compose({ firstName: 'Ana', estimate: person.estimate, title: person.title });
    expect(cache.stats).toMatchObject({ hits: 1, misses: 2, size: 1 });
    expect(strings(first).join(' ')).toContain('Maya');
    expect(strings(second).join(' ')).toContain('Theo');
    expect(strings(second).join(' ')).not.toContain('Maya');
    expect(strings(third).join(' ')).toContain('Ana');
    expect(strings(third).join(' ')).not.toMatch(/Maya|Theo/);
    // What a caller does with its answer does not reach the next caller's.
    third.qualities.length = 0;
    third.emailing.phrases[0] = 'changed';
    expect(cache.compose({ firstName: 'Ana', estimate: person.estimate, title: person.title })).toEqual(composeConnectRecommendations({ firstName: 'Ana', estimate: person.estimate, title: person.title }, shipped));
    // Unnamed: "this person", capitalised where it opens a sentence, as composing says it.
    const unnamed = cache.compose({ firstName: null, estimate: person.estimate, title: person.title });
    expect(strings(unnamed).join(' ')).toMatch(/\bthis person\b|\bThis person\b/);
    expect(strings(unnamed).join(' ')).not.toMatch(/Maya|Theo|\uE000/);
  });

  it('with 0 entries composes every answer anew', () => {
    const cache = new RecommendationsCache(() => shipped, 0);
    const [person] = people;
    if (!person) throw new Error('no generated person');
    const party = { firstName: 'Maya', estimate: person.estimate, title: null };
    expect(cache.compose(party)).toEqual(composeConnectRecommendations(party, shipped));
    expect(cache.compose(party)).toEqual(composeConnectRecommendations(party, shipped));
    expect(cache.stats).toEqual({ hits: 0, misses: 0, size: 0 });
  });
});
