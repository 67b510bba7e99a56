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

describe('a repeated text is answered with the very bytes of its first answer', () => {
  const profile = TEXTS[3] ?? '';
  const getFrom = (host: string, text = profile) => service.base.inject({ url: `/v1/analysis/text?text=${encodeURIComponent(text)}`, headers: { ...auth, host } });
  const post = (payload: Record<string, string>) => service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers: auth, payload });

  it('GET and POST: the repeat is served from the kept bytes, equal to the first answer and to one made with nothing kept, headers included', async () => {
    const cached = service.ctx.textResults;
    const first = await getFrom('api.example.com');
    const hitsBefore = cached.hits;
    // The repeat composes nothing: with the content composer out of order it is answered all the same.
    const descriptions = service.ctx.descriptions;
    Object.assign(service.ctx, { descriptions: { describe: () => { throw new Error('composed again'); } } });
    const again = await getFrom('api.example.com').finally(() => Object.assign(service.ctx, { descriptions }));
    expect(again.statusCode).toBe(200);
    // One reuse: the kept bytes (not the reading, then serialised again).
    expect(cached.hits).toBe(hitsBefore + 1);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.headers['content-length']).toBe(first.headers['content-length']);
    const postFirst = await post({ text: profile });
    const postAgain = await post({ text: profile });
    expect(postAgain.rawPayload.equals(postFirst.rawPayload)).toBe(true);
    expect(postAgain.headers['content-type']).toBe('application/json; charset=utf-8');
    Object.assign(service.ctx, { textResults: new TextResultCache(0) });
    try {
      const fresh = await getFrom('api.example.com');
      const postFresh = await post({ text: profile });
      expect(fresh.rawPayload.equals(first.rawPayload)).toBe(true);
      expect(fresh.headers['content-type']).toBe(first.headers['content-type']);
      expect(postFresh.rawPayload.equals(postFirst.rawPayload)).toBe(true);
    } finally {
      Object.assign(service.ctx, { textResults: cached });
    }
    // The two routes answer in their own shapes (A2 has links, A3 not): neither is served the other's bytes.
    expect(first.body).not.toBe(postFirst.body);
    expect(first.body).toContain('http://api.example.com/');
    expect(postFirst.body).not.toContain('http://api.example.com/');
  });

  it("GET: the bytes kept for one base URL are not another's (links follow the Host each caller used)", async () => {
    const a = await getFrom('a.example.com');
    const b = await getFrom('b.example.com');
    const aAgain = await getFrom('a.example.com');
    expect(a.body).toContain('http://a.example.com/');
    expect(b.body).toContain('http://b.example.com/');
    expect(b.body).not.toContain('a.example.com');
    expect(aAgain.rawPayload.equals(a.rawPayload)).toBe(true);
    expect(b.body.replaceAll('b.example.com', 'a.example.com')).toBe(a.body);
  });

  it('text types, the no-personality answer and a bad Host are kept apart as before', async () => {
    const plain = await post({ text: profile });
    // Read as an email, the same text is read and kept anew, not served what was kept for it untyped.
    const hits = service.ctx.textResults.hits;
    const typed = await post({ text: profile, text_type: 'email' });
    expect(service.ctx.textResults.hits).toBe(hits);
    const typedAgain = await post({ text: profile, text_type: 'email' });
    expect(service.ctx.textResults.hits).toBe(hits + 1);
    expect(typed.statusCode).toBe(200);
    expect(plain.statusCode).toBe(200);
    expect(typedAgain.rawPayload.equals(typed.rawPayload)).toBe(true);
    // Too short for a personality: the no-personality answer, the same again, whatever the Host.
    const short = await getFrom('a.example.com', 'Engineer.');
    const shortAgain = await getFrom('a.example.com', 'Engineer.');
    expect(short.statusCode).toBe(200);
    expect(JSON.parse(short.body)).toMatchObject({ data: null });
    expect(shortAgain.rawPayload.equals(short.rawPayload)).toBe(true);
    // A Host links cannot be built from is refused for an answer with links, first time or not.
    for (let i = 0; i < 2; i += 1) {
      const bad = await getFrom('bad host!');
      expect(bad.statusCode).toBe(400);
      expect(JSON.parse(bad.body)).toMatchObject({ error: { code: 'bad_request' } });
    }
  });
});

function analyzeTextOk(text: string) {
  const result = analyzeText(text, { model: service.ctx.model });
  if (!result.ok) throw new Error(`no estimate: ${result.reason}`);
  return result.estimate;
}
