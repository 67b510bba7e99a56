/**
 * Who reads a chunk of an import batch's texts (analysis-threads.ts): a claim per chunk in memory
 * the main thread shares with the analysis threads, won once with Atomics.compareExchange, so
 * that a chunk is read by exactly one of them. Its own module: the worker's module starts a
 * thread's work when it is loaded, and the main thread needs these too.
 */
import type { TextSample } from './person.ts';

/** A chunk's claim: nobody's yet, read by an analysis thread, or read by the main thread. */
export const UNCLAIMED = 0;
export const BY_THREAD = 1;
export const BY_MAIN_THREAD = 2;

/** A chunk of a batch's people, and its slot in the batch's claims. */
export interface AnalysisTask {
  people: TextSample[][];
  claims: Int32Array;
  slot: number;
}
