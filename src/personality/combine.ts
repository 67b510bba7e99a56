import { evidenceWeight, unshrunkTrait } from './shrink.ts';
import { TRAITS, type Trait, type TraitEstimate, type TraitScores } from './types.ts';

/**
 * One estimate from two of the same person: what is stored about them and a new text sample.
 *
 * - A measured personality (the test, `source: 'assessment'`) wins over any text: the text is
 *   dropped.
 * - Otherwise each trait is the average of the two scores weighted by confidence squared (the
 *   share of the evidence each carries: confidence grows with the words read, and its square
 *   behaves like the information in a noisy reading). A 600-word stored bio (confidence ≈ 0.18
 *   on extraversion) outweighs a 50-word line (≈ 0.09) four to one, so one line cannot overturn it.
 * - The confidence is the two combined as independent readings, √(a² + b²), never below
 *   either one and at most 1; the word count is the sum.
 * - Text scores are shrunk toward the average by their evidence (shrink.ts). The two readings
 *   are combined unshrunk and shrunk again for the words of both, so two texts support a
 *   point further out than either alone (an estimate without a weight counts as unshrunk).
 * Evidence items describe one analysis, so the result has none.
 */
export function combineEstimates(stored: TraitEstimate | null, sample: TraitEstimate | null): TraitEstimate | null {
  if (!stored) return sample;
  if (!sample) return stored;
  if (stored.source === 'assessment') return stored;
  if (sample.source === 'assessment') return sample;
  const scores = {} as TraitScores;
  const confidence = {} as TraitScores;
  const wordCount = (stored.wordCount || 0) + (sample.wordCount || 0);
  const shrunk = stored.evidenceWeight !== undefined || sample.evidenceWeight !== undefined;
  const kept = shrunk ? evidenceWeight(wordCount) : 1;
  for (const trait of TRAITS) {
    const [score, conf] = combineTrait(stored, sample, trait);
    scores[trait] = round4(Math.max(-1, Math.min(1, kept * score)));
    confidence[trait] = conf;
  }
  const combined: TraitEstimate = { scores, confidence, source: 'prediction', modelVersion: sample.modelVersion, wordCount };
  if (shrunk) combined.evidenceWeight = round4(kept);
  return combined;
}

function unit(value: number | undefined): number {
  return value !== undefined && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

function combineTrait(a: TraitEstimate, b: TraitEstimate, trait: Trait): [score: number, confidence: number] {
  const ca = unit(a.confidence[trait]);
  const cb = unit(b.confidence[trait]);
  const sa = unshrunkTrait(a, trait);
  const sb = unshrunkTrait(b, trait);
  const wa = ca * ca;
  const wb = cb * cb;
  // Neither reading says anything about this trait: fall back to the word counts.
  const [weightA, weightB] = wa + wb > 0 ? [wa, wb] : [Math.max(a.wordCount, 0), Math.max(b.wordCount, 0)];
  const total = weightA + weightB;
  const score = total > 0 ? (weightA * sa + weightB * sb) / total : (sa + sb) / 2;
  return [score, round4(Math.min(1, Math.sqrt(wa + wb)))];
}

function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
