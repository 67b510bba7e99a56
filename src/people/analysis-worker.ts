/**
 * Body of an import's analysis thread (analysis-threads.ts): loads the model the import reads
 * with once, then reads one chunk of a batch's people per task, as the import would inline.
 */
import { workerData } from 'node:worker_threads';
import { loadModel, type TextModel } from '../personality/text/model.ts';
import type { TraitEstimate } from '../personality/types.ts';
import { analyzeTexts } from './analyze.ts';
import type { TextSample } from './person.ts';
import { textsHash } from './upsert.ts';

export interface AnalysisWorkerData {
  /** The file the import's model was loaded from. */
  modelPath: string;
  /** That model's version: a thread that loads another (the file replaced meanwhile) fails its task. */
  modelVersion: string;
}

const { modelPath, modelVersion } = workerData as AnalysisWorkerData;
let model: TextModel | undefined;

/** A person's estimate from their texts (null: no personality), and the texts' hash the write compares and stores. */
export interface ReadTexts {
  estimate: TraitEstimate | null;
  hash: string;
}

/** Each person's reading, in the order given. */
export function analyzeChunk(people: TextSample[][]): ReadTexts[] {
  model ??= loadModel(modelPath);
  if (model.version !== modelVersion) throw new Error(`${modelPath} holds model ${model.version}, not the import's ${modelVersion}`);
  const loaded = model;
  return people.map((texts) => ({ estimate: analyzeTexts(loaded, texts).estimate, hash: textsHash(texts) }));
}

// Piscina calls the module's default export (the compiled build starts this file directly).
export default analyzeChunk;
