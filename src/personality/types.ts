/** The five traits every view is derived from (docs/architecture.md, "One estimate, many views"). */
export const TRAITS = ['extraversion', 'agreeableness', 'conscientiousness', 'openness', 'neuroticism'] as const;
export type Trait = (typeof TRAITS)[number];

export type TraitScores = Record<Trait, number>;

/** A phrase or word of the text that moved a trait, with its signed contribution. */
export interface EvidenceItem {
  /** The phrase as written. */
  term: string;
  /** Signed: how far it moved the trait's reading (decision-value units). */
  weight: number;
  /** What the phrase shows, in a reader's words ("sets a deadline"); absent for a plain word. */
  label?: string;
  /** Offsets of the phrase in the text as sent (UTF-16 code units, end exclusive). */
  start?: number;
  end?: number;
}

/** A phrase that moved the DISC point, with the style it pointed to. */
export interface StyleEvidence {
  term: string;
  label?: string;
  start?: number;
  end?: number;
  /** The style the phrase pointed to on its own. */
  toward: 'D' | 'I' | 'S' | 'C';
  /** Positive when it pulled the point toward where it landed, negative when it pulled away. */
  weight: number;
}

/**
 * One measured or predicted personality. Scores are in [-1, 1] (0 = population average),
 * confidences in [0, 1].
 */
export interface TraitEstimate {
  scores: TraitScores;
  confidence: TraitScores;
  source: 'assessment' | 'prediction';
  modelVersion: string;
  wordCount: number;
  /**
   * Predictions only: the share of the text's reading the scores keep, n / (n + k) for n words
   * (shrink.ts), so the scores are the posterior mean with the prior at the population average.
   * Absent for a test (measured, not shrunk) and for estimates stored before shrinking.
   */
  evidenceWeight?: number;
  evidence?: Record<Trait, EvidenceItem[]>;
  /** The phrases that most moved the DISC point (model v3), supporting ones first. */
  styleEvidence?: StyleEvidence[];
  /** The kind of writing the text was read as (model v3): personal, email, profile, bio or resume. */
  genre?: string;
}

/** A point on the DISC plane: x questioning(-)..accepting(+), y reflective(-)..active(+). */
export interface DiscPoint {
  x: number;
  y: number;
}
