/**
 * Body of an import's analysis thread (analysis-threads.ts): loads the model the import reads
 * with once, then reads one chunk of a batch's people per task, as the import would inline.
 */
import { workerData } from 'node:worker_threads';
import { loadModel, type TextModel } from '../personality/text/model.ts';
import type { TraitEstimate } from '../personality/types.ts';
import { analyzeTexts } from './analyze.ts';
import type { TextSample } from './person.ts';

export interface AnalysisWorkerData {
  /** The file the import's model was loaded from. */
  modelPath: string;
  /** That model's version: a thread that loads another (the file replaced meanwhile) fails its task. */
  modelVersion: string;
}

const { modelPath, modelVersion } = workerData as AnalysisWorkerData;
let model: TextModel | undefined;

/** Each person's estimate from their texts (null: no personality), in the order given. */
export function analyzeChunk(people: TextSample[][]): (TraitEstimate | null)[] {
  model ??= loadModel(modelPath);
  if (model.version !== modelVersion) throw new Error(`${modelPath} holds model ${model.version}, not the import's ${modelVersion}`);
  const loaded = model;
  return people.map((texts) => analyzeTexts(loaded, texts).estimate);
}

// Piscina calls the module's default export (the compiled build starts this file directly).
export default analyzeChunk;
