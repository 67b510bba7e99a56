import { analyzeText, loadModel } from '../personality/text/index.ts';
import type { TraitEstimate } from '../personality/types.ts';
import type { TextSample } from './person.ts';

/** The version of the text model this process runs; stored with every estimate it makes. */
export function currentModelVersion(): string {
  return loadModel().version;
}

/**
 * A person's personality from all their text samples read as one text by one author. Resumes
 * and bios are labelled text (titles, skills), so any of them switches the model to that mode.
 * Evidence is left out: it is for showing one analysis, and would bloat a million stored rows.
 */
export function analyzeTexts(texts: readonly TextSample[]): { estimate: TraitEstimate | null; modelVersion: string } {
  const modelVersion = currentModelVersion();
  if (texts.length === 0) return { estimate: null, modelVersion };
  const labelled = texts.some((t) => t.type === 'resume' || t.type === 'bio');
  const result = analyzeText(texts.map((t) => t.text).join('\n\n'), { labelled, evidence: false });
  return { estimate: result.ok ? result.estimate : null, modelVersion };
}
