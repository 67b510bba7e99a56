/** The five traits every view is derived from (DESIGN.md §1). */
export const TRAITS = ['extraversion', 'agreeableness', 'conscientiousness', 'openness', 'neuroticism'] as const;
export type Trait = (typeof TRAITS)[number];

export type TraitScores = Record<Trait, number>;

/** A word or phrase that moved a trait, with its signed contribution. */
export interface EvidenceItem {
  term: string;
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
}

/** A point on the DISC plane: x questioning(-)..accepting(+), y reflective(-)..active(+). */
export interface DiscPoint {
  x: number;
  y: number;
}
