/**
 * Body of a text-analysis worker thread: loads the model named by the pool once, then
 * analyses one text per task. Runs under piscina (pool.ts), through worker-boot.mjs.
 */
import { workerData } from 'node:worker_threads';
import { analyzeText, loadModel, type TextAnalysis, type TextModel, type TextType } from './index.ts';

export interface TextTask {
  text: string;
  /** What the caller says the text is; undefined lets the model guess. */
  textType: TextType | undefined;
  evidence: boolean;
}

export interface TextWorkerData {
  /** Model file to load: the one the process's ctx.model came from (RAPPORT_TEXT_MODEL). */
  modelPath: string;
}

const { modelPath } = workerData as TextWorkerData;
let model: TextModel | undefined;

export function analyzeTask(task: TextTask): TextAnalysis {
  // Loaded by the first task rather than as the thread starts: a thread that cannot load it then
  // fails that task (a 500), where a thread failing to start would leave the task waiting for
  // another, started on demand, that fails the same way.
  model ??= loadModel(modelPath);
  return analyzeText(task.text, { textType: task.textType, evidence: task.evidence, model });
}

// Piscina calls the module's default export (the compiled build starts this file directly).
export default analyzeTask;
