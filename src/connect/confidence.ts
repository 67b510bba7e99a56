import { pointConfidence } from '../personality/views.ts';
import type { TraitEstimate } from '../personality/types.ts';

/**
 * `disc_scores.confidence` (0–100) of a Connect profile: how much evidence its DISC placement
 * rests on (docs/api-decisions.md).
 * - A completed personality test: 90–100 (90 plus a tenth of the test's own point confidence).
 * - Text: 89 × (1 − e^(−words/600)), at least 1: about 6 for 40 words, 35 for 300, 72 for
 *   1,000, 86 for 2,000; it never reaches a test's. The text model's own confidence is capped
 *   by how well text predicts personality at all (about 0.2), which would read as "20%
 *   sure" of every text profile; the word count says what a caller can act on: more text,
 *   more trust.
 */
const TEXT_CEILING = 89;
const WORDS_SCALE = 600;

export function discConfidence(estimate: TraitEstimate, tested: boolean): number {
  if (tested || estimate.source === 'assessment') return 90 + Math.round(pointConfidence(estimate.confidence) / 10);
  const words = Number.isFinite(estimate.wordCount) ? Math.max(0, estimate.wordCount) : 0;
  return Math.max(1, Math.round(TEXT_CEILING * (1 - Math.exp(-words / WORDS_SCALE))));
}
