import { afterAll, describe, expect, it } from 'vitest';
import { analyzeText } from '../../../src/personality/text/index.ts';
import { DEFAULT_MODEL_PATH, loadModel } from '../../../src/personality/text/model.ts';
import { TextPool } from '../../../src/personality/text/pool.ts';
import { OUTGOING_TEXT, RESUME_TEXT } from '../../fixtures/texts.ts';

describe('TextPool', () => {
  const model = loadModel();
  const pooled = new TextPool({ model, modelPath: DEFAULT_MODEL_PATH, workers: 1, maxQueue: 10, inlineMaxChars: 1 });
  const missing = new TextPool({ model, modelPath: '/nonexistent/model.json', workers: 1, maxQueue: 10, inlineMaxChars: 1 });
  afterAll(async () => {
    await pooled.close();
    await missing.close();
  });

  it('answers in a worker, with the model file it was given, what the main thread answers', async () => {
    for (const text of [OUTGOING_TEXT, RESUME_TEXT, 'too short']) {
      for (const options of [{ textType: 'resume' as const, evidence: true }, { evidence: false }]) {
        expect(await pooled.analyze(text, options)).toEqual(analyzeText(text, { ...options, model }));
      }
    }
    expect(pooled.pooledTexts).toBe(6);
  });

  it('loads the model it is given: a missing file fails the text instead of using another model', async () => {
    await expect(missing.analyze(OUTGOING_TEXT)).rejects.toThrow();
  });

  it('starts no thread until the first long text, then one per text at once, up to its workers', async () => {
    const lazy = new TextPool({ model, modelPath: DEFAULT_MODEL_PATH, workers: 2, maxQueue: 10, inlineMaxChars: 100 });
    try {
      expect(await lazy.analyze('too short')).toEqual(analyzeText('too short', { model }));
      expect(lazy.threadCount).toBe(0);
      await Promise.all([lazy.analyze(RESUME_TEXT), lazy.analyze(RESUME_TEXT), lazy.analyze(OUTGOING_TEXT)]);
      expect(lazy.threadCount).toBe(2);
    } finally {
      await lazy.close();
    }
  }, 90_000);

  it('analyses short texts on the calling thread', async () => {
    const inline = new TextPool({ model, modelPath: DEFAULT_MODEL_PATH, workers: 1, maxQueue: 1, inlineMaxChars: 10_000 });
    expect(await inline.analyze(OUTGOING_TEXT)).toEqual(analyzeText(OUTGOING_TEXT, { model }));
    expect(inline.pooledTexts).toBe(0);
    await inline.close();
  });

  it('refuses the texts still waiting when it closes as the service stopping (503), and any sent after', async () => {
    const closing = new TextPool({ model, modelPath: DEFAULT_MODEL_PATH, workers: 1, maxQueue: 10, inlineMaxChars: 1 });
    const waiting = Promise.allSettled(Array.from({ length: 4 }, () => closing.analyze(RESUME_TEXT)));
    await closing.close();
    const refused = (await waiting).filter((result) => result.status === 'rejected');
    expect(refused.length).toBeGreaterThan(0);
    for (const result of refused) expect(result.reason).toMatchObject({ code: 'unavailable', message: expect.stringMatching(/service is stopping/) });
    await expect(closing.analyze(RESUME_TEXT)).rejects.toMatchObject({ code: 'unavailable' });
  });
});
