import { analyzeText, type TextModel } from '../src/personality/text/index.ts';
import { agreementOf, majorityStyle, readAll, samePerson, textAndPdf, withoutSelfDescriptions, type Agreement } from './eval-professional.ts';
import type { ProfessionalText } from './professional.ts';

/**
 * The professional-writing part of `npm run eval`: the shipped reader on the held-out quarter of
 * the professional corpus, on the texts a new hand wrote after the model was frozen, and the
 * consistency figures (the same person across kinds of writing, a resume as text and as PDF).
 */

const percent = (value: number): string => `${(100 * value).toFixed(1)} %`;

function describe(name: string, figures: Agreement, baseline: number): void {
  console.log(`${name}: ${figures.texts} texts, dominant style agrees ${percent(figures.agreement)} (majority-class baseline ${percent(baseline)}); opposite style ${percent(figures.opposite)}; first letter of the DISC type ${percent(figures.firstLetter)}${figures.unread > 0 ? `; ${figures.unread} gave no personality` : ''}`);
  const row = (label: string, values: Record<string, number>): void => console.log(`  ${label.padEnd(9)} ${Object.entries(values).map(([key, value]) => `${key} ${percent(value)}`).join(' · ')}`);
  row('by kind', figures.byGenre);
  row('by style', figures.byStyle);
  row('by label', figures.byLabel);
}

export async function evaluateProfessional(model: TextModel, corpus: readonly ProfessionalText[]): Promise<void> {
  const heldOut = corpus.filter((text) => text.split === 'heldout');
  const fresh = corpus.filter((text) => text.split === 'fresh');
  console.log(`== Professional writing: the shipped reader (${model.version}) on texts it was never trained or tuned on`);
  console.log('agreement is on the dominant style: the quarter of the DISC circle the reading lands in (a blend label counts as its first letter)\n');
  describe('held-out quarter, kind of writing guessed (group A)', agreementOf(readAll(model, heldOut)), majorityStyle(heldOut));
  describe('held-out quarter, kind given (Connect text_type)', agreementOf(readAll(model, heldOut, undefined, true)), majorityStyle(heldOut));
  const bare = agreementOf(readAll(model, heldOut, withoutSelfDescriptions));
  console.log(`held-out with self-descriptions deleted (decisive, patient, meticulous, "a people person"…): ${percent(bare.agreement)}; by kind ${Object.entries(bare.byGenre).map(([k, v]) => `${k} ${percent(v)}`).join(' · ')}`);
  const people = samePerson(readAll(model, heldOut));
  console.log(`the same person in two kinds of writing (held-out): ${people.pairs} people, both texts in the same style ${percent(people.same)}`);
  const everyone = samePerson(readAll(model, corpus.filter((text) => text.split !== 'fresh')));
  console.log(`  (all ${everyone.pairs} people written twice, training ones included: ${percent(everyone.same)})`);
  const resumes = heldOut.filter((text) => text.textType === 'resume');
  const pdf = await textAndPdf(model, resumes);
  console.log(`a resume as text and as a PDF of it (held-out, extracted as uploads are): ${pdf.resumes} resumes, same DISC type ${percent(pdf.sameType)}, same style ${percent(pdf.sameStyle)}`);
  const kinds = heldOut.map((text) => {
    const result = analyzeText(text.text, { model });
    return result.ok && result.estimate.genre === text.genre ? 1 : 0;
  });
  console.log(`kind of writing guessed right (held-out): ${percent(kinds.reduce<number>((sum, ok) => sum + ok, 0) / Math.max(kinds.length, 1))} (a first-person bio reads as a profile, which is read much alike)`);
  if (fresh.length > 0) {
    console.log('');
    describe('written by a new hand after the model was frozen', agreementOf(readAll(model, fresh)), majorityStyle(fresh));
  } else {
    console.log('\n(no texts written after the model was frozen in this corpus)');
  }
  console.log('');
}
