import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeText, loadModel, TEXT_TYPES } from '../../../src/personality/text/index.ts';

/**
 * The text model's full answers (scores, confidence, genre, evidence with its offsets) over a
 * fixed sample of 60 texts of the labelled corpus, pinned by a hash: a change meant only to make
 * the analyzer cheaper must leave every byte as it was. A change that is meant to move the
 * numbers (new weights, a new signal) updates the hash and says so. To compare a whole corpus
 * between two checkouts, see bench/text-outputs.ts.
 */
const model = loadModel();
const sample = readFileSync(new URL('./reference/output-sample.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => String((JSON.parse(line) as { text: unknown }).text));

function answers(text: string, i: number): unknown[] {
  // Labels, markup and a sign-off around the text: the reader removes them and evidence points back into the text as sent.
  const dressed = `Title: Notes ${i}\n<p>${text.replace(/\n\n/g, '</p>\n\n<p>')}</p>\n\nSent from my phone`;
  return [
    analyzeText(text, { model }),
    analyzeText(text, { model, evidence: true }),
    ...TEXT_TYPES.map((textType) => analyzeText(dressed, { model, textType, evidence: true })),
  ];
}

describe('text model outputs', () => {
  it('are byte for byte those pinned for the fixed sample', () => {
    const all = sample.map((text, i) => answers(text, i));
    const json = JSON.stringify(all);
    // A few readings in full, so a failure shows what moved.
    expect(all[0]?.[0]).toMatchInlineSnapshot(`
      {
        "estimate": {
          "confidence": {
            "agreeableness": 0.1615,
            "conscientiousness": 0.1539,
            "extraversion": 0.1507,
            "neuroticism": 0.1862,
            "openness": 0.251,
          },
          "evidenceWeight": 0.375,
          "genre": "email",
          "modelVersion": "rapport-text-v3+f012754b",
          "scores": {
            "agreeableness": -0.1314,
            "conscientiousness": 0.2079,
            "extraversion": 0.0611,
            "neuroticism": 0.2671,
            "openness": -0.2613,
          },
          "source": "prediction",
          "wordCount": 180,
        },
        "ok": true,
      }
    `);
    expect(createHash('sha256').update(json).digest('hex')).toBe('c92f7645b476145b313d5f2836b9952d2936ab1b6e10b4b9ef3a29f65a42626e');
  });
});
