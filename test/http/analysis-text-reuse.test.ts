import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TextResultCache } from '../../src/analysis/text-results.ts';
import { DescriptionCache } from '../../src/content/description-cache.ts';
import { describePersonality } from '../../src/content/describe.ts';
import { analyzeText } from '../../src/personality/text/index.ts';
import { enterpriseService, type TestService } from '../helpers/service.ts';

let service: TestService;
let auth: { authorization: string };
beforeAll(async () => {
  ({ service, auth } = await enterpriseService());
});
afterAll(() => service.close());

/** Professional texts of every kind and side of the circle: many different readings. */
const TEXTS = readFileSync(new URL('../../training/corpus/professional.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as { text: string })
  .filter((row, i) => i % 7 === 0 && row.text.length < 4000)
  .slice(0, 40)
  .map((row) => row.text);

const NAMES = [null, 'Sam', 'mary-jane', '  Émile ', 'O\'Brien'];
const TITLES = [null, 'VP of Sales', 'Staff Engineer', 'Nurse', 'Founder'];

describe('answers reused for equal inputs are the answers made anew, byte for byte', () => {
  it('GET and POST /v1/analysis/text: first answer, reused answer and one made with nothing reused are the same bytes', async () => {
    expect(TEXTS.length).toBe(40);
    const cached = { textResults: service.ctx.textResults, descriptions: service.ctx.descriptions };
    const uncached = { textResults: new TextResultCache(0), descriptions: new DescriptionCache(() => service.ctx.content.phrases, 0) };
    const ask = async (text: string) => {
      const get = await service.base.inject({ url: `/v1/analysis/text?text=${encodeURIComponent(text)}`, headers: auth });
      const post = await service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers: auth, payload: { text } });
      expect(get.statusCode).toBe(200);
      expect(post.statusCode).toBe(200);
      return [get.body, post.body];
    };
    const types = new Set<string>();
    for (const text of TEXTS) {
      Object.assign(service.ctx, cached);
      const first = await ask(text);
      const reused = await ask(text);
      Object.assign(service.ctx, uncached);
      const fresh = await ask(text);
      expect(reused).toEqual(first);
      expect(fresh).toEqual(first);
      types.add(String((JSON.parse(first[0] ?? '{}') as { data: { personalities?: { disc_type: string } } | null }).data?.personalities?.disc_type));
    }
    Object.assign(service.ctx, cached);
    // The texts read as many types, and the second asking of each was served from the caches.
    expect(types.size).toBeGreaterThanOrEqual(6);
    expect(cached.textResults.hits).toBeGreaterThanOrEqual(TEXTS.length * 3);
    expect(cached.descriptions.stats.hits).toBeGreaterThanOrEqual(TEXTS.length);
  });

  it('a description reused for equal composition inputs (name, title) equals describePersonality, and cannot be changed by a caller', () => {
    const phrases = service.ctx.content.phrases;
    const cache = new DescriptionCache(() => phrases, 50);
    let compared = 0;
    for (const text of TEXTS) {
      const result = analyzeText(text, { model: service.ctx.model });
      if (!result.ok) continue;
      for (const [i, name] of NAMES.entries()) {
        const title = TITLES[(i + compared) % TITLES.length] ?? null;
        const expected = JSON.stringify(describePersonality(phrases, result.estimate, name, { title }));
        expect(JSON.stringify(cache.describe(result.estimate, name, { title }))).toBe(expected);
        expect(JSON.stringify(cache.describe(result.estimate, name, { title }))).toBe(expected);
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(150);
    // Every second call was served from the cache (50 entries: many were let go and made again).
    expect(cache.stats.hits).toBeGreaterThanOrEqual(compared);
    expect(cache.stats.size).toBeLessThanOrEqual(50);
    const { content } = cache.describe(analyzeTextOk(TEXTS[0] ?? ''), 'Sam');
    expect(() => (content.summary as unknown as string[]).push('x')).toThrow();
    expect(() => {
      (content as { summary: string }).summary = 'changed';
    }).toThrow(TypeError);
  });
});

function analyzeTextOk(text: string) {
  const result = analyzeText(text, { model: service.ctx.model });
  if (!result.ok) throw new Error(`no estimate: ${result.reason}`);
  return result.estimate;
}
