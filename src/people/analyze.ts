import { analyzeText, type TextAnalysis, type TextModel, type TextType } from '../personality/text/index.ts';
import type { TextPool } from '../personality/text/pool.ts';
import { estimateVersion } from '../personality/shrink.ts';
import type { TraitEstimate } from '../personality/types.ts';
import type { TextSample } from './person.ts';
import type { Analyze } from './upsert.ts';

/**
 * A person's personality from all their text samples read as one text by one author, as every
 * text is read (analyzeText); samples of one kind are read as that kind, a mix lets the model
 * weigh the kinds it sees. Evidence is left out: it is for showing one analysis, and would
 * bloat a million stored rows.
 */
export function analyzeTexts(model: TextModel, texts: readonly TextSample[]): { estimate: TraitEstimate | null; modelVersion: string } {
  if (texts.length === 0) return { estimate: null, modelVersion: versionOf(model) };
  const { text, textType } = oneText(texts);
  return fromAnalysis(model, analyzeText(text, { textType, evidence: false, model }));
}

/** analyzeTexts on a worker thread of `pool` (the same model, loaded there from the same file): the same result. */
export async function analyzeTextsOffThread(pool: TextPool, texts: readonly TextSample[]): Promise<{ estimate: TraitEstimate | null; modelVersion: string }> {
  const { model } = pool.options;
  if (texts.length === 0) return { estimate: null, modelVersion: versionOf(model) };
  const { text, textType } = oneText(texts);
  return fromAnalysis(model, await pool.analyze(text, { textType, evidence: false, background: true, offThread: true }));
}

/** Stored with the profile: the model and the shrink (shrink.ts), so recompute sees either change. */
function versionOf(model: TextModel): string {
  return estimateVersion(model.version);
}

/** All samples as one text; samples of one kind are read as that kind, a mix lets the model weigh them. */
function oneText(texts: readonly TextSample[]): { text: string; textType: TextType | undefined } {
  const kinds = new Set(texts.map((t) => t.type));
  const [only] = kinds;
  return { text: texts.map((t) => t.text).join('\n\n'), textType: kinds.size === 1 ? only : undefined };
}

function fromAnalysis(model: TextModel, result: TextAnalysis): { estimate: TraitEstimate | null; modelVersion: string } {
  return { estimate: result.ok ? result.estimate : null, modelVersion: versionOf(model) };
}

/** The people domain's analysis with the process's model (stored with estimateVersion of the model's version). */
export function analyzerFor(model: TextModel): Analyze {
  return (texts) => analyzeTexts(model, texts);
}
