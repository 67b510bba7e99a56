/**
 * Body of an import's analysis thread (analysis-threads.ts): loads the model the import reads
 * with once, then reads the people of one chunk of a batch per task, as the import would inline.
 */
import { workerData } from 'node:worker_threads';
import { loadModel, type TextModel } from '../personality/text/model.ts';
import { readPerson, type ReadTexts } from './analyze.ts';
import type { TextSample } from './person.ts';

export interface AnalysisWorkerData {
  /** The file the import's model was loaded from. */
  modelPath: string;
  /** That model's version: a thread that loads another (the file replaced meanwhile) fails its task. */
  modelVersion: string;
}

const { modelPath, modelVersion } = workerData as AnalysisWorkerData;
let model: TextModel | undefined;

/**
 * A chunk of a batch's people, shared with the import's own thread: whoever takes the next index
 * from `next[0]` (Atomics.add) reads that person, so the write's thread can take the people no
 * thread has reached yet (analysis-threads.ts).
 */
export interface SharedChunk {
  people: TextSample[][];
  /** One Int32 on a SharedArrayBuffer: the index of the next person nobody has taken. */
  next: Int32Array;
}

/** The readings of the people this thread took, by index; null where the import's thread took them. */
export function analyzeChunk({ people, next }: SharedChunk): (ReadTexts | null)[] {
  model ??= loadModel(modelPath);
  if (model.version !== modelVersion) throw new Error(`${modelPath} holds model ${model.version}, not the import's ${modelVersion}`);
  const read: (ReadTexts | null)[] = new Array<ReadTexts | null>(people.length).fill(null);
  for (let i = Atomics.add(next, 0, 1); i < people.length; i = Atomics.add(next, 0, 1)) read[i] = readPerson(model, people[i] ?? []);
  return read;
}

// Piscina calls the module's default export (the compiled build starts this file directly).
export default analyzeChunk;
