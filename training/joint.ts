import type { Trait } from '../src/personality/types.ts';
import { buildMatrix, fitPreprocessor, type FoldPreprocessor, type PreparedDocument, type TrainingConfig } from './design.ts';
import { fitLogistic, linearScores, priorMatchingThreshold, type LogisticModel, type SparseMatrix } from './logistic.ts';
import { accuracy, rocAuc } from './metrics.ts';
import { personaFolds, softTargets, type ProfessionalText } from './professional.ts';
import { stratifiedFolds } from './random.ts';

/**
 * The two traits that place a person on the DISC circle, learnt from both corpora at once:
 * the essays (real writers, with their own questionnaire's median split) and the professional
 * texts (written to a style, as soft targets, softTargets). One set of weights reads both, so a
 * signal the professional texts teach must not contradict what the essays say about real people,
 * and the essays' figures are checked on the same model (`npm run eval`).
 */

export const CIRCLE_TRAITS = ['extraversion', 'agreeableness'] as const satisfies readonly Trait[];
export type CircleTrait = (typeof CIRCLE_TRAITS)[number];

export interface JointSettings {
  config: TrainingConfig;
  /**
   * Domain adaptation by feature copies (Daumé 2007): every feature has a shared weight and one
   * for its domain (essays, or professional writing), scaled by this; 0 keeps one shared set.
   * A larger scale lets a domain's weights stray further from the shared ones.
   */
  domainScale: number;
  /** How much one professional text's loss counts against one essay's. */
  professionalWeight: number;
  /** softTargets' strength: 1 maps a pure style to targets 0 and 1, less keeps them inside. */
  labelStrength: number;
}

export interface JointData {
  /** Prepared documents: the essays first, then the professional texts. */
  docs: readonly PreparedDocument[];
  essayLabels: Record<CircleTrait, Uint8Array>;
  professional: readonly ProfessionalText[];
}

export interface JointFit {
  /** Weights as the essays read them (shared + essay copy). */
  personal: LogisticModel;
  /** Weights as professional writing reads them (shared + professional copy). */
  professional: LogisticModel;
  preprocessor: FoldPreprocessor;
  /** Subtracted from the linear score: the essays' prior-matching threshold. */
  threshold: number;
}

export type Domain = 'personal' | 'professional';

/**
 * The design matrix with domain copies: row r keeps its features in columns [0, C) and repeats
 * them, scaled, in its domain's block: [C, 2C) for essays, [2C, 3C) for professional writing.
 */
function withDomainCopies(matrix: SparseMatrix, domainOf: (row: number) => Domain, scale: number): SparseMatrix {
  if (scale <= 0) return matrix;
  const { rows, columns, rowStart, columnIndex, values } = matrix;
  const outStart = new Int32Array(rows + 1);
  const outColumns = new Int32Array(2 * columnIndex.length);
  const outValues = new Float64Array(2 * values.length);
  let next = 0;
  for (let row = 0; row < rows; row++) {
    const begin = rowStart[row] ?? 0;
    const end = rowStart[row + 1] ?? 0;
    const offset = domainOf(row) === 'personal' ? columns : 2 * columns;
    for (let k = begin; k < end; k++) {
      outColumns[next] = columnIndex[k] ?? 0;
      outValues[next++] = values[k] ?? 0;
    }
    for (let k = begin; k < end; k++) {
      outColumns[next] = (columnIndex[k] ?? 0) + offset;
      outValues[next++] = (values[k] ?? 0) * scale;
    }
    outStart[row + 1] = next;
  }
  return { rows, columns: 3 * columns, rowStart: outStart, columnIndex: outColumns, values: outValues };
}

/** The folded weights of one domain: shared + scale × the domain's copy. */
function domainModel(fitted: LogisticModel, columns: number, domain: Domain, scale: number): LogisticModel {
  if (scale <= 0) return fitted;
  const offset = domain === 'personal' ? columns : 2 * columns;
  const weights = new Float64Array(columns);
  for (let j = 0; j < columns; j++) weights[j] = (fitted.weights[j] ?? 0) + scale * (fitted.weights[offset + j] ?? 0);
  return { weights, intercept: fitted.intercept };
}

function targetsFor(data: JointData, trait: CircleTrait, settings: JointSettings): { targets: Float64Array; weights: Float64Array } {
  const essays = data.essayLabels[trait];
  const targets = new Float64Array(data.docs.length);
  const weights = new Float64Array(data.docs.length);
  essays.forEach((label, i) => {
    targets[i] = label;
    weights[i] = 1;
  });
  data.professional.forEach((text, k) => {
    targets[essays.length + k] = softTargets(text.label, settings.labelStrength)[trait];
    weights[essays.length + k] = settings.professionalWeight;
  });
  return { targets, weights };
}

/** Fits one circle trait on the given rows (indexes into data.docs). */
export function fitJoint(data: JointData, trait: CircleTrait, rows: readonly number[], settings: JointSettings, denseStats?: { mean: Float64Array; sd: Float64Array }): JointFit {
  const { config } = settings;
  const { targets, weights } = targetsFor(data, trait, settings);
  const preprocessor = fitPreprocessor(data.docs, rows, config, denseStats);
  const matrix = buildMatrix(data.docs, rows, preprocessor, config);
  const essayCount = data.essayLabels[trait].length;
  const domainOf = (k: number): Domain => ((rows[k] ?? 0) < essayCount ? 'personal' : 'professional');
  const fitted = fitLogistic(
    withDomainCopies(matrix, domainOf, settings.domainScale),
    Float64Array.from(rows, (row) => targets[row] ?? 0),
    { l2: config.l2, sampleWeights: Float64Array.from(rows, (row) => weights[row] ?? 1) },
  );
  const personal = domainModel(fitted, matrix.columns, 'personal', settings.domainScale);
  const professional = domainModel(fitted, matrix.columns, 'professional', settings.domainScale);
  // The decision threshold keeps its essays meaning: it splits the training essays as their labels split.
  const essayRows = rows.filter((row) => row < essayCount);
  const essayMatrix = buildMatrix(data.docs, essayRows, preprocessor, config);
  const threshold = priorMatchingThreshold(linearScores(essayMatrix, personal), Uint8Array.from(essayRows, (row) => data.essayLabels[trait][row] ?? 0));
  return { personal, professional, preprocessor, threshold };
}

export function decisionValues(fit: JointFit, docs: readonly PreparedDocument[], rows: readonly number[], config: TrainingConfig, domain: Domain): Float64Array {
  return linearScores(buildMatrix(docs, rows, fit.preprocessor, config), fit[domain]).map((z) => z - fit.threshold);
}

export interface JointCrossValidation {
  /** Per trait: out-of-fold decision values of every document of data.docs. */
  outOfFold: Record<CircleTrait, Float64Array>;
  /** Per trait: the mean over folds of the held-out essays' ROC AUC. */
  essayAuc: Record<CircleTrait, number>;
  /** Per trait: each fold's held-out essays' accuracy and ROC AUC. */
  foldAccuracy: Record<CircleTrait, number[]>;
  foldAuc: Record<CircleTrait, number[]>;
  /** The same with the essays read by the professional weights: what that reading knows of real writers. */
  professionalReadingEssayAuc: Record<CircleTrait, number>;
  /** Per trait and alternative: out-of-fold decision values of each alternative version of the professional texts. */
  alternatives: Record<CircleTrait, Float64Array[]>;
  /** Per trait and essay variant: out-of-fold decision values of each alternative version of the essays. */
  essayVariants: Record<CircleTrait, Float64Array[]>;
}

/**
 * k-fold cross-validation of the circle traits (both unless `traits` names fewer): essays in folds
 * stratified on extraversion, professional texts in folds by persona; each fold trains on the
 * other folds of both corpora. `alternatives` are other versions of the professional texts (e.g.
 * self-descriptions removed), `essayVariants` of the essays (split halves), scored by the fold
 * model that did not see them. A trait left out keeps zeros and empty lists in the result: a
 * caller fitting one trait (training/fit-model.ts) asks for that one, since each trait's folds are
 * fitted independently and cost half the run each.
 */
export function crossValidateJoint(
  data: JointData,
  settings: JointSettings,
  folds: number,
  seed: number,
  alternatives: ReadonlyArray<readonly PreparedDocument[]> = [],
  essayVariants: ReadonlyArray<readonly PreparedDocument[]> = [],
  onFold?: (trait: CircleTrait, fit: JointFit) => void,
  traits: readonly CircleTrait[] = CIRCLE_TRAITS,
): JointCrossValidation {
  const essayCount = data.essayLabels.extraversion.length;
  const essayFold = stratifiedFolds(data.essayLabels.extraversion, folds, seed);
  const professionalFold = personaFolds(data.professional, folds, seed);
  const foldOf = (row: number): number => (row < essayCount ? (essayFold[row] ?? 0) : (professionalFold[row - essayCount] ?? 0));
  const empty = (): Float64Array => new Float64Array(data.docs.length);
  const outOfFold = { extraversion: empty(), agreeableness: empty() };
  const essayAuc = { extraversion: 0, agreeableness: 0 };
  const foldAuc: Record<CircleTrait, number[]> = { extraversion: [], agreeableness: [] };
  const foldAccuracy: Record<CircleTrait, number[]> = { extraversion: [], agreeableness: [] };
  const professionalReadingEssayAuc = { extraversion: 0, agreeableness: 0 };
  const alternativeValues = {
    extraversion: alternatives.map(() => new Float64Array(data.professional.length)),
    agreeableness: alternatives.map(() => new Float64Array(data.professional.length)),
  };
  const variantValues = {
    extraversion: essayVariants.map(() => new Float64Array(essayCount)),
    agreeableness: essayVariants.map(() => new Float64Array(essayCount)),
  };
  const everyRow = data.docs.map((_, row) => row);
  for (const trait of traits) {
    let aucSum = 0;
    let crossAucSum = 0;
    for (let fold = 0; fold < folds; fold++) {
      const train = everyRow.filter((row) => foldOf(row) !== fold);
      const test = everyRow.filter((row) => foldOf(row) === fold);
      const fit = fitJoint(data, trait, train, settings);
      onFold?.(trait, fit);
      const testEssaysFirst = test.filter((row) => row < essayCount);
      const testProfessionalRows = test.filter((row) => row >= essayCount);
      const essayValues = decisionValues(fit, data.docs, testEssaysFirst, settings.config, 'personal');
      const professionalValues = decisionValues(fit, data.docs, testProfessionalRows, settings.config, 'professional');
      testEssaysFirst.forEach((row, k) => {
        outOfFold[trait][row] = essayValues[k] ?? 0;
      });
      testProfessionalRows.forEach((row, k) => {
        outOfFold[trait][row] = professionalValues[k] ?? 0;
      });
      // What the professional reading knows of real writers: the essays read with its weights.
      const crossValues = decisionValues(fit, data.docs, testEssaysFirst, settings.config, 'professional');
      crossAucSum += rocAuc(crossValues, Uint8Array.from(testEssaysFirst, (row) => data.essayLabels[trait][row] ?? 0));
      const testEssays = test.filter((row) => row < essayCount);
      const heldOutValues = Float64Array.from(testEssays, (row) => outOfFold[trait][row] ?? 0);
      const heldOutLabels = Uint8Array.from(testEssays, (row) => data.essayLabels[trait][row] ?? 0);
      const foldAucValue = rocAuc(heldOutValues, heldOutLabels);
      aucSum += foldAucValue;
      foldAuc[trait].push(foldAucValue);
      foldAccuracy[trait].push(accuracy(heldOutValues, heldOutLabels));
      const testProfessional = test.filter((row) => row >= essayCount).map((row) => row - essayCount);
      alternatives.forEach((alternative, a) => {
        const scored = decisionValues(fit, alternative, testProfessional, settings.config, 'professional');
        testProfessional.forEach((k, i) => {
          const target = alternativeValues[trait][a];
          if (target !== undefined) target[k] = scored[i] ?? 0;
        });
      });
      essayVariants.forEach((variant, v) => {
        const scored = decisionValues(fit, variant, testEssays, settings.config, 'personal');
        testEssays.forEach((row, i) => {
          const target = variantValues[trait][v];
          if (target !== undefined) target[row] = scored[i] ?? 0;
        });
      });
    }
    essayAuc[trait] = aucSum / folds;
    professionalReadingEssayAuc[trait] = crossAucSum / folds;
  }
  return { outOfFold, essayAuc, foldAuc, foldAccuracy, professionalReadingEssayAuc, alternatives: alternativeValues, essayVariants: variantValues };
}
