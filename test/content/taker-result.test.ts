import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { composeTakerResult } from '../../src/content/taker/compose-result.ts';
import { parseTakerResultContent, RESULT_LISTS, TakerResultContentError } from '../../src/content/taker/result.ts';
import { DISC_TYPES } from '../../src/personality/circle.ts';
import type { TraitScores } from '../../src/personality/types.ts';
import { viewFromPoint } from '../../src/personality/views.ts';
import { shipped } from '../helpers/content.ts';

const content = shipped.takerResult;
const raw = JSON.parse(readFileSync(new URL('../../src/content/taker/result.json', import.meta.url), 'utf8')) as Record<string, unknown>;

function at(angle: number, radius: number, traits: Partial<TraitScores> = {}) {
  const point = { x: radius * Math.cos((angle * Math.PI) / 180), y: radius * Math.sin((angle * Math.PI) / 180) };
  const view = viewFromPoint(point, traits);
  const scores: TraitScores = { extraversion: 0, agreeableness: 0, conscientiousness: 0, openness: 0, neuroticism: 0, ...traits };
  return { view, scores };
}

/** Every claim each sentence of the file makes, by its text. */
const claimsOf = new Map<string, string>();
JSON.stringify(raw, (_key, value: unknown) => {
  if (typeof value === 'object' && value !== null && 'text' in value && 'claims' in value) {
    const entry = value as { text: string; claims: string };
    claimsOf.set(entry.text, entry.claims);
  }
  return value;
});

describe("the taker's result content", () => {
  it('fills every list for every type, near the centre and far out, in the second person', () => {
    for (const { code, angle } of DISC_TYPES) {
      for (const radius of [0.15, 0.5, 0.92]) {
        const { view, scores } = at(angle, radius);
        expect(view.discType).toBe(code);
        const result = composeTakerResult(content, view, scores, true);
        for (const list of RESULT_LISTS) {
          expect(result.lists[list].length, `${code} at ${radius}: ${list}`).toBeGreaterThanOrEqual(list === 'strengths' || list === 'blindSpots' ? 4 : 3);
          expect(new Set(result.lists[list]).size).toBe(result.lists[list].length);
          for (const sentence of result.lists[list]) expect(sentence).toMatch(/\b(you|your)\b/i);
        }
        expect(result.explanation.join(' ')).toMatch(/\byou/i);
        expect(result.bars.map((b) => b.scale)).toEqual(['d', 'i', 's', 'c', 'intensity', 'conscientiousness', 'openness']);
      }
    }
  });

  it('explains the letters of the type: main style, lean, or an even pair', () => {
    expect(composeTakerResult(content, at(292.5, 0.8).view, at(292.5, 0.8).scores, true).letters).toEqual([
      { letter: 'S', style: 'Steadiness', role: 'main' },
      { letter: 'c', style: 'Conscientiousness', role: 'lean' },
    ]);
    const even = at(90, 0.8);
    expect(even.view.discType).toBe('DI');
    expect(composeTakerResult(content, even.view, even.scores, true).letters.map((l) => l.role)).toEqual(['equal', 'equal']);
    const pure = at(135, 0.8);
    expect(composeTakerResult(content, pure.view, pure.scores, true).letters).toEqual([{ letter: 'D', style: 'Dominance', role: 'main' }]);
  });

  it('tells a blend that it is one and which way it leans', () => {
    const { view, scores } = at(45, 0.2);
    const result = composeTakerResult(content, view, scores, true);
    expect(result.gist).toMatch(/near the centre/);
    expect(result.explanation[0]).toBe(`Of the four styles, you lean a little toward Influence: your point sits in the area of the map called ${view.archetype}, close to its centre.`);
    // An even pair near the centre leans toward both of its styles.
    const pair = at(0, 0.2);
    expect(composeTakerResult(content, pair.view, pair.scores, true).explanation[0]).toMatch(/toward Influence and Steadiness: .*Connector/);
  });

  it('says nothing a measured trait contradicts, and adds what the trait says', () => {
    for (const { angle } of DISC_TYPES) {
      for (const [trait, score, banned] of [
        ['conscientiousness', 0.75, 'structure:loose'],
        ['conscientiousness', -0.7, 'structure:orderly'],
        ['openness', 0.7, 'novelty:wary'],
        ['openness', -0.7, 'novelty:seeks'],
      ] as const) {
        const { view, scores } = at(angle, 0.9, { [trait]: score });
        const result = composeTakerResult(content, view, scores, true);
        const all = RESULT_LISTS.flatMap((list) => result.lists[list]);
        for (const sentence of all) expect(claimsOf.get(sentence), `${view.discType}, ${trait} ${score}: ${sentence}`).not.toBe(banned);
        expect(result.lists.strengths).toContain(content.traits[trait][score > 0 ? 'high' : 'low'].strengths.text);
        expect(result.bars.find((b) => b.scale === trait)?.level).toMatch(score > 0 ? /high/ : /low/);
      }
    }
    // An I measured as thorough: the I's "details can slip" gives way.
    const { view, scores } = at(45, 0.9, { conscientiousness: 0.75 });
    expect(composeTakerResult(content, view, scores, true).lists.blindSpots.join(' ')).not.toMatch(/Details and follow-up can slip/);
    expect(composeTakerResult(content, view, { ...scores, conscientiousness: 0 }, true).lists.blindSpots.join(' ')).toMatch(/Details and follow-up can slip/);
  });

  it('refuses a file that speaks of the taker in the third person, misses a type or names an unknown claim', () => {
    const broken = structuredClone(raw) as { styles: { D: { strengths: { text: string; claims?: string }[] } }; types: Record<string, string> };
    broken.styles.D.strengths[0] = { text: '{first} makes decisions quickly.' };
    broken.styles.D.strengths[1] = { text: 'Decisions come quickly here.' };
    broken.styles.D.strengths[2] = { text: 'You plan.', claims: 'structure:tidy' };
    delete broken.types.Sc;
    let error: unknown;
    try {
      parseTakerResultContent(broken);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TakerResultContentError);
    const problems = (error as TakerResultContentError).problems.join('\n');
    expect(problems).toMatch(/styles\.D\.strengths\[0\]\.text: .*third person/);
    expect(problems).toMatch(/styles\.D\.strengths\[1\]\.text: does not speak to the taker/);
    expect(problems).toMatch(/styles\.D\.strengths\[2\]\.claims/);
    expect(problems).toMatch(/types\.Sc: expected a sentence/);
  });
});
