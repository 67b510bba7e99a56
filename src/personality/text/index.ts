import { traitsToPoint } from '../circle.ts';
import { evidenceWeight } from '../shrink.ts';
import { TRAITS, type Trait, type TraitEstimate, type TraitScores } from '../types.ts';
import { traitEvidence } from './evidence.ts';
import { GENRES, genreFeatures, genreProbabilities, genresAllowed, topGenre, type TextType } from './genre.ts';
import { readOrReject, type RejectionReason } from './junk.ts';
import { cleanLabelledText } from './labelled.ts';
import { stripMarkup } from './markup.ts';
import { PROFESSIONAL_OUTPUT, type TextModel } from './model.ts';
import { predict } from './predict.ts';
import { spanLocator } from './spans.ts';
import { confidenceOf, empiricalCdf, lengthFactor, standingForLength } from './standing.ts';
import { tokenize } from './tokenizer.ts';

/**
 * Rapport's text model: a personality estimate from what a person wrote. Every caller reads a
 * text the same way (GET and POST analysis, PDFs, Connect's text samples, imported people,
 * `rapport analyze`): labels and boilerplate set aside (labelled.ts), then read as the kind of
 * writing it is.
 *
 * Kind of writing (genre.ts): personal writing such as the essays the model first learned from,
 * a work email, a first-person profile, a third-person bio or a resume, guessed from the text's
 * shape unless the caller says (`textType`). A text is read against writing of its own kind: a
 * terse email is not reserved because emails are terser than essays.
 *
 * Score: the writer's standing among reference texts × `lengthFactor(words)` × the evidence
 * weight n / (n + k) (../shrink.ts), the posterior mean with the prior at the average, so the
 * DISC point and its intensity show only what the text supports. For personal writing the
 * standing is 2F(z) − 1 against the essays (length-aware, standing.ts); for professional
 * writing it is the same against the norms of its kind (the professional corpus), with z from
 * the weights professional writing is read with (extraversion and agreeableness; training/
 * joint.ts). The kinds are mixed by how likely each is, so a text between two kinds moves
 * smoothly between their readings.
 *
 * Confidence: `(2·AUC − 1) × lengthFactor(words)`, AUC being the trait's cross-validated ROC AUC
 * on the essays, whose writers' own questionnaires are the only measure of real people the model
 * has. It does not depend on the score or on the kind of writing.
 *
 * Evidence (evidence.ts): per trait, the phrases and words of the text that moved it, with their
 * offsets in the text as sent and what they show in a reader's words; and the phrases that moved
 * the DISC point, with the style each pointed to.
 */

export { MIN_WORDS, type RejectionReason } from './junk.ts';
export { cleanLabelledText } from './labelled.ts';
export { DEFAULT_MODEL_PATH, loadModel, type TextModel } from './model.ts';
export { TEXT_TYPES, type TextType } from './genre.ts';

export type TextAnalysis =
  | { ok: true; estimate: TraitEstimate }
  | { ok: false; reason: RejectionReason; wordCount: number };

export interface AnalyzeOptions {
  /** What the caller says the text is (the contract's `text_type`); guessed from the text when absent or `various`. */
  textType?: TextType | undefined;
  /** Include the phrases and words that moved each trait most. */
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

/** What a trait's standing is read from: the model, the text's decision values, its kinds of writing (null: one kind) and its length. */
interface Reading {
  model: TextModel;
  logits: Float64Array;
  genres: Float64Array | null;
  wordCount: number;
}

/**
 * A trait's standing: the personal reading against the essays, mixed by kind of writing with the
 * professional readings against each kind's norms. A function of the module, not a closure made
 * per text (tsx's `__name` defines a property on each closure when run from source).
 */
function standingOf({ model, logits, genres, wordCount }: Reading, trait: Trait): number {
  const t = TRAITS.indexOf(trait);
  const z = logits[t] ?? 0;
  const full = { words: model.typicalWords, quantiles: model.quantiles[trait], atThreshold: model.atThreshold[trait] };
  const personal = standingForLength(model.lengthQuantiles[trait], full, z, wordCount);
  if (genres === null) return personal;
  const output = PROFESSIONAL_OUTPUT[trait];
  const professionalZ = output !== undefined && model.professionalTraits.has(trait) ? (logits[output] ?? 0) : z;
  let standing = 0;
  for (let g = 0; g < GENRES.length; g++) {
    const share = genres[g] ?? 0;
    if (share === 0) continue;
    const genre = GENRES[g];
    const norm = genre === undefined || genre === 'personal' ? undefined : model.norms[trait][genre];
    standing += share * (norm === undefined ? personal : 2 * empiricalCdf(norm, professionalZ) - 1);
  }
  return standing;
}

export function analyzeText(text: string, opts: AnalyzeOptions): TextAnalysis {
  const source = cleanLabelledText(text);
  const read = stripMarkup(source);
  const tokens = tokenize(read);
  const checked = readOrReject(text, tokens);
  if ('reason' in checked) return { ok: false, reason: checked.reason, wordCount: tokens.words.length };
  const { words } = checked;

  const { model } = opts;
  const prediction = predict(model, tokens, opts.evidence === true, words);
  const wordCount = prediction.wordCount;
  const lengthWeight = lengthFactor(model.lengthCurve, wordCount);
  // The posterior mean: what the text supports, pulled toward the population average (shrink.ts).
  const kept = evidenceWeight(wordCount);
  const genres = model.genres === null ? null : genreProbabilities(model.genres, genreFeatures(text, tokens.words, words.infos), genresAllowed(opts.textType));
  const personalShare = genres === null ? 1 : (genres[0] ?? 0);
  const reading: Reading = { model, logits: prediction.logits, genres, wordCount };
  const scores = traitRecord((trait) => round(model.trainedTraits.has(trait) ? kept * lengthWeight * standingOf(reading, trait) : 0, 4));
  const confidence = traitRecord((trait) => (model.trainedTraits.has(trait) ? round(confidenceOf(model.auc[trait], lengthWeight), 4) : 0));

  const estimate: TraitEstimate = { scores, confidence, source: 'prediction', modelVersion: model.version, wordCount, evidenceWeight: round(kept, 4) };
  if (genres !== null) estimate.genre = topGenre(genres);
  if (prediction.contributions !== undefined) {
    const evidence = traitEvidence(
      { model, text: read, sent: text, personalShare, point: traitsToPoint(scores), locate: spanLocator(read, text) },
      prediction.contributions,
    );
    estimate.evidence = evidence.traits;
    estimate.styleEvidence = evidence.style;
  }
  return { ok: true, estimate };
}
