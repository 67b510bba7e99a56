import type { Db } from '../db/client.ts';
import type { Progress } from '../shared/progress.ts';
import { estimateVersion } from '../personality/shrink.ts';
import type { TextModel } from '../personality/text/index.ts';
import { analyzerFor } from './analyze.ts';
import { countPeopleForRecompute, listPeopleForRecompute, updateEstimates, type EstimateUpdate } from './repository.ts';
import type { Analyze } from './upsert.ts';

const PAGE_SIZE = 500;
const PROGRESS_EVERY_MS = 250;

export interface RecomputeOptions {
  /** Recompute everyone, not only those analysed under another estimate version (model and shrink). */
  all?: boolean;
  analyze?: Analyze;
  modelVersion?: string;
  progress?: Progress;
}

export interface RecomputeSummary {
  modelVersion: string;
  recomputed: number;
  withPersonality: number;
  withoutPersonality: number;
  /** Profiles left alone because the current model already made them (always 0 with `all`). */
  upToDate: number;
  seconds: number;
}

/**
 * How many profiles this run will visit, and how many it leaves because they are current:
 * counted up front so a run with nothing to do can say so instead of reporting "0".
 * Verified profiles are never recomputed and are in neither number.
 */
async function plan(db: Db, modelVersion: string, all: boolean): Promise<{ total: number; upToDate: number }> {
  const eligible = await countPeopleForRecompute(db, { modelVersion, all: true });
  if (all) return { total: eligible, upToDate: 0 };
  const total = await countPeopleForRecompute(db, { modelVersion, all: false });
  return { total, upToDate: Math.max(eligible - total, 0) };
}

/**
 * Computes stored personalities again with the current text model, page by page (keyed on id,
 * so rows updated behind the cursor are never visited twice), one transaction per page.
 */
export async function recomputeProfiles(deps: { db: Db; model: TextModel }, options: RecomputeOptions = {}): Promise<RecomputeSummary> {
  const { db } = deps;
  const modelVersion = options.modelVersion ?? estimateVersion(deps.model.version);
  const analyze = options.analyze ?? analyzerFor(deps.model);
  const { total, upToDate } = await plan(db, modelVersion, options.all === true);
  const started = performance.now();
  const summary: RecomputeSummary = { modelVersion, recomputed: 0, withPersonality: 0, withoutPersonality: 0, upToDate, seconds: 0 };
  let lastProgress = 0;
  let afterId = '';
  for (;;) {
    const page = await listPeopleForRecompute(db, afterId, PAGE_SIZE, { modelVersion, all: options.all === true });
    const last = page.at(-1);
    if (!last) break;
    const updates: EstimateUpdate[] = page.map((person) => {
      const { estimate } = analyze(person.texts);
      if (estimate) summary.withPersonality += 1;
      else summary.withoutPersonality += 1;
      return { id: person.id, estimate, modelVersion };
    });
    await db.transaction((tx) => updateEstimates(tx, updates));
    summary.recomputed += page.length;
    afterId = last.id;
    if (options.progress && performance.now() - lastProgress >= PROGRESS_EVERY_MS) {
      lastProgress = performance.now();
      const seconds = (performance.now() - started) / 1000;
      options.progress({ phase: 'recompute', recomputed: summary.recomputed, total, rows_per_second: Math.round(summary.recomputed / Math.max(seconds, 0.001)) });
    }
  }
  summary.seconds = Math.round(performance.now() - started) / 1000;
  options.progress?.({ phase: 'recompute', recomputed: summary.recomputed, total, rows_per_second: Math.round(summary.recomputed / Math.max(summary.seconds, 0.001)) });
  return summary;
}
