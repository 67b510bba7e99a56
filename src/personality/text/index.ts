import { TRAITS, type Trait, type TraitEstimate, type TraitScores } from '../types.ts';
import { rejectionOf, type RejectionReason } from './junk.ts';
import { cleanLabelledText } from './labelled.ts';
import { tokenizeProse } from './markup.ts';
import { calibrationSlope, loadModel, type TextModel } from './model.ts';
import { predict } from './predict.ts';

/**
 * Rapport's text model: a personality estimate from what a person wrote.
 *
 * Scores: the model's calibrated probability p that the writer is above the median on a
 * trait, mapped to 2p − 1. Calibration is Platt scaling fitted on held-out essays (and on
 * held-out excerpts of 50–400 words, so short texts get flatter probabilities); the
 * sign of a score is the model's decision.
 *
 * Confidence: (1 − e^(−words/300)) × (0.5 + 0.5·|score|). The first factor grows with
 * the evidence (0.13 at 40 words, 0.28 at 100, 0.63 at 300, 0.96 at 1,000); the second
 * with how far the calibrated model leans. A trait the model was not trained for
 * scores 0 with confidence 0.
 *
 * Evidence: per trait, up to five of the text's own words ranked by how far they moved
 * the trait's logit (before calibration); a positive weight pushed the trait up.
 */

export { MIN_WORDS, type RejectionReason } from './junk.ts';
export { cleanLabelledText } from './labelled.ts';
export { loadModel, type TextModel } from './model.ts';

export type TextAnalysis =
  | { ok: true; estimate: TraitEstimate }
  | { ok: false; reason: RejectionReason; wordCount: number };

export interface AnalyzeOptions {
  /** The text is a resume or profile: labels and boilerplate are removed first. */
  labelled?: boolean;
  /** Include the words and phrases that moved each trait most. */
  evidence?: boolean;
  /** A model from loadModel(path); the committed model when left out. */
  model?: TextModel;
}

/** Words at which the evidence factor of confidence reaches 1 − 1/e. */
const EVIDENCE_SCALE_WORDS = 300;

function sigmoid(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
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

export function analyzeText(text: string, opts: AnalyzeOptions = {}): TextAnalysis {
  const labelled = opts.labelled === true;
  const source = labelled ? cleanLabelledText(text) : text;
  const tokens = tokenizeProse(source);
  const reason = rejectionOf(source, tokens, labelled);
  if (reason !== undefined) return { ok: false, reason, wordCount: tokens.words.length };

  const model = opts.model ?? loadModel();
  const prediction = predict(model, tokens, opts.evidence === true);
  const wordCount = prediction.wordCount;
  const evidenceFactor = 1 - Math.exp(-wordCount / EVIDENCE_SCALE_WORDS);
  const scoreOf = (trait: Trait): number => {
    if (!model.trainedTraits.has(trait)) return 0;
    const logit = prediction.logits[TRAITS.indexOf(trait)] ?? 0;
    return 2 * sigmoid(calibrationSlope(model.calibration[trait], wordCount) * logit) - 1;
  };
  const scores = traitRecord((trait) => round(scoreOf(trait), 4));
  const confidence = traitRecord((trait) =>
    model.trainedTraits.has(trait) ? round(evidenceFactor * (0.5 + 0.5 * Math.abs(scoreOf(trait))), 4) : 0,
  );

  const estimate: TraitEstimate = { scores, confidence, source: 'prediction', modelVersion: model.version, wordCount };
  if (prediction.evidence !== undefined) estimate.evidence = prediction.evidence;
  return { ok: true, estimate };
}
