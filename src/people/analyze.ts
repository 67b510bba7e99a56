import { analyzeText, type TextModel } from '../personality/text/index.ts';
import { estimateVersion } from '../personality/shrink.ts';
import type { TraitEstimate } from '../personality/types.ts';
import type { TextSample } from './person.ts';
import { textsHash, type Analyze } from './upsert.ts';

/**
 * A person's personality from all their text samples read as one text by one author, as every
 * text is read (analyzeText); samples of one kind are read as that kind, a mix lets the model
 * weigh the kinds it sees. Evidence is left out: it is for showing one analysis, and would
 * bloat a million stored rows.
 */
export function analyzeTexts(model: TextModel, texts: readonly TextSample[]): { estimate: TraitEstimate | null; modelVersion: string } {
  // Stored with the profile: the model and the shrink (shrink.ts), so recompute sees either change.
  const modelVersion = estimateVersion(model.version);
  if (texts.length === 0) return { estimate: null, modelVersion };
  const kinds = new Set(texts.map((t) => t.type));
  const [only] = kinds;
  const result = analyzeText(texts.map((t) => t.text).join('\n\n'), { textType: kinds.size === 1 ? only : undefined, evidence: false, model });
  return { estimate: result.ok ? result.estimate : null, modelVersion };
}

/** The people domain's analysis with the process's model (stored with estimateVersion of the model's version). */
export function analyzerFor(model: TextModel): Analyze {
  return (texts) => analyzeTexts(model, texts);
}

/** A person's estimate from their texts (null: no personality), and the texts' hash the write compares and stores. */
export interface ReadTexts {
  estimate: TraitEstimate | null;
  hash: string;
}

/** One person's reading, as an import's analysis thread or the import's own thread computes it ahead of the write. */
export function readPerson(model: TextModel, texts: readonly TextSample[]): ReadTexts {
  return { estimate: analyzeTexts(model, texts).estimate, hash: textsHash(texts) };
}
