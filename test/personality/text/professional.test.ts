import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { loadModel } from '../../../src/personality/text/index.ts';
import { agreementOf, readAll, samePerson, withoutSelfDescriptions } from '../../../training/eval-professional.ts';
import { readProfessionalCorpus } from '../../../training/professional.ts';

/**
 * The committed model on professional writing it was never trained or tuned on: the held-out
 * quarter of the professional corpus and the texts written after the model was frozen
 * (training/corpus/README.md). The model before v3 read 47 % of such texts in their own style
 * (most as C) and 22 % in the opposite one; `npm run eval` prints the full figures.
 */
const model = loadModel();
const corpus = readProfessionalCorpus(fileURLToPath(new URL('../../../training/corpus/professional.jsonl', import.meta.url))).texts;
const heldOut = corpus.filter((text) => text.split === 'heldout');
const fresh = corpus.filter((text) => text.split === 'fresh');

describe('professional writing it was never trained on', () => {
  const readings = readAll(model, heldOut);
  const figures = agreementOf(readings);

  it('reads the held-out texts in the style their writers gave them, in every kind of writing, never the opposite one', () => {
    expect(heldOut.length).toBeGreaterThanOrEqual(240);
    expect(figures.unread).toBe(0);
    expect(figures.agreement).toBeGreaterThanOrEqual(0.8);
    expect(figures.opposite).toBeLessThanOrEqual(0.01);
    for (const share of Object.values(figures.byGenre)) expect(share).toBeGreaterThanOrEqual(0.7);
    // Every style is read, not one default: each at least 70 %.
    for (const share of Object.values(figures.byStyle)) expect(share).toBeGreaterThanOrEqual(0.7);
  });

  it('does not rest on self-descriptions: with "decisive", "patient", "meticulous"… deleted the reading holds', () => {
    const bare = agreementOf(readAll(model, heldOut, withoutSelfDescriptions));
    expect(bare.agreement).toBeGreaterThanOrEqual(figures.agreement - 0.03);
  });

  it('reads one person alike in two kinds of writing', () => {
    const people = samePerson(readings);
    // 32 people of the held-out split are written twice (training/corpus/README.md).
    expect(people.pairs).toBeGreaterThanOrEqual(30);
    expect(people.same).toBeGreaterThanOrEqual(0.75);
  });

  it('reads texts a new hand wrote after the model was frozen', () => {
    expect(fresh.length).toBeGreaterThanOrEqual(40);
    const newHand = agreementOf(readAll(model, fresh));
    expect(newHand.agreement).toBeGreaterThanOrEqual(0.7);
    expect(newHand.opposite).toBeLessThanOrEqual(0.03);
  });
});
