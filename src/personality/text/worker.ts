/**
 * Body of a text-analysis worker thread: loads the model named by the pool once, then
 * analyses one text per task. Runs under piscina (pool.ts), through worker-boot.mjs.
 */
import { workerData } from 'node:worker_threads';
import { analyzeText, loadModel, type TextAnalysis, type TextType } from './index.ts';

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
const model = loadModel(modelPath);

export function analyzeTask(task: TextTask): TextAnalysis {
  return analyzeText(task.text, { textType: task.textType, evidence: task.evidence, model });
}

// Piscina calls the module's default export (the compiled build starts this file directly).
export default analyzeTask;
