import { TRAITS, type Trait, type TraitEstimate, type TraitScores } from '../types.ts';
import { rejectionOf, type RejectionReason } from './junk.ts';
import { cleanLabelledText } from './labelled.ts';
import { tokenizeProse } from './markup.ts';
import type { TextModel } from './model.ts';
import { evidenceWeight } from '../shrink.ts';
import { predict } from './predict.ts';
import { confidenceOf, lengthFactor, standingForLength } from './standing.ts';

/**
 * Rapport's text model: a personality estimate from what a person wrote.
 *
 * Score: the writer's standing among the reference population (the training essays),
 * `evidenceWeight(words) × lengthFactor(words) × standing`; the evidence weight n / (n + k)
 * (../shrink.ts) makes it the posterior mean with the prior at the average, so the DISC point
 * and its intensity show only what the text supports. Standing is 2F(z) − 1 with F the empirical CDF of
 * the out-of-fold decision values z of the training essays (101 quantiles per trait in
 * the model file), pinned so that z = 0, the model's decision threshold, maps to 0: the
 * sign is always the model's call, and over the training essays scores spread evenly
 * over [-1, 1] (median |score| ≈ 0.5), so people land across the DISC circle instead of
 * all near its centre. A short text's decision value is noisier, so its standing is
 * pulled toward 0 by the length factor: the share of the full-text ranking quality
 * (held-out AUC − ½) that excerpts of that length keep, measured at training (≈ 0.5
 * at 50 words, 1 for texts of the typical essay length, ~630 words, and longer).
 *
 * Confidence: `(2·AUC − 1) × lengthFactor(words)`, AUC being the trait's cross-validated
 * ROC AUC. It grows with the evidence and is capped by how well the trait can be read
 * from text at all (≈ 0.18 for extraversion, 0.34 for openness on full essays); it does
 * not depend on the score. A trait the model was not trained for scores 0 with
 * confidence 0.
 *
 * Evidence: per trait, up to five items ranked by how far they moved the trait's
 * decision value; a positive weight pushed the trait up. Items are content words of the
 * text and word classes the text uses more than the reference population, shown with
 * the class's most frequent word, e.g. "I (first-person pronouns)". Function words such
 * as "the" or "of" keep their weight in the model but are never shown.
 */

export { MIN_WORDS, type RejectionReason } from './junk.ts';
export { cleanLabelledText } from './labelled.ts';
export { DEFAULT_MODEL_PATH, loadModel, type TextModel } from './model.ts';

export type TextAnalysis =
  | { ok: true; estimate: TraitEstimate }
  | { ok: false; reason: RejectionReason; wordCount: number };

export interface AnalyzeOptions {
  /** The text is a resume or profile: labels and boilerplate are removed first. */
  labelled?: boolean;
  /** Include the words and phrases that moved each trait most. */
  evidence?: boolean;
  /** The model to read with: the service's `ctx.model`, or loadModel(path) in scripts and tests. */
  model: TextModel;
}

function traitRecord(valueOf: (trait: Trait) => number): TraitScores {
  return {
    extraversion: valueOf('extraversion'),
    agreeableness: valueOf('agreeableness'),
    conscientiousness: valueOf('conscientiousness'),
    openness: valueOf('openness'),
    neuroticism: valueOf('neuroticism'),
  };
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export function analyzeText(text: string, opts: AnalyzeOptions): TextAnalysis {
  const labelled = opts.labelled === true;
  const source = labelled ? cleanLabelledText(text) : text;
  const tokens = tokenizeProse(source);
  const reason = rejectionOf(source, tokens, labelled);
  if (reason !== undefined) return { ok: false, reason, wordCount: tokens.words.length };

  const { model } = opts;
  const prediction = predict(model, tokens, opts.evidence === true);
  const wordCount = prediction.wordCount;
  const lengthWeight = lengthFactor(model.lengthCurve, wordCount);
  // The posterior mean: what the text supports, pulled toward the population average (shrink.ts).
  const kept = evidenceWeight(wordCount);
  const scoreOf = (trait: Trait): number => {
    if (!model.trainedTraits.has(trait)) return 0;
    const z = prediction.logits[TRAITS.indexOf(trait)] ?? 0;
    const full = { words: model.typicalWords, quantiles: model.quantiles[trait], atThreshold: model.atThreshold[trait] };
    return kept * lengthWeight * standingForLength(model.lengthQuantiles[trait], full, z, wordCount);
  };
  const scores = traitRecord((trait) => round(scoreOf(trait), 4));
  const confidence = traitRecord((trait) => (model.trainedTraits.has(trait) ? round(confidenceOf(model.auc[trait], lengthWeight), 4) : 0));

  const estimate: TraitEstimate = { scores, confidence, source: 'prediction', modelVersion: model.version, wordCount, evidenceWeight: round(kept, 4) };
  if (prediction.evidence !== undefined) estimate.evidence = prediction.evidence;
  return { ok: true, estimate };
}
