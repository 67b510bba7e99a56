import path from 'node:path';
import { Type } from 'typebox';
import { exportPerson, forgetPerson, type ForgetKey, type ForgetSummary, type PersonExport } from '../people/forget.ts';
import { IMPORT_FORMATS, importPeople, type ImportSummary } from '../people/import.ts';
import { recomputeProfiles, type RecomputeSummary } from '../people/recompute.ts';
import { DEFAULT_MODEL_PATH } from '../personality/text/model.ts';
import { AppError } from '../shared/errors.ts';
import { defineVerb } from './verb.ts';

/** One person, named by exactly one of email or linkedin_url (the CLI's --email / --linkedin-url). */
const PersonArgs = Type.Object({ email: Type.Optional(Type.String({ minLength: 1 })), linkedin_url: Type.Optional(Type.String({ minLength: 1 })) });

function forgetKey(args: { email?: string | undefined; linkedin_url?: string | undefined }): ForgetKey {
  if (args.email !== undefined && args.linkedin_url === undefined) return { email: args.email };
  if (args.linkedin_url !== undefined && args.email === undefined) return { linkedinUrl: args.linkedin_url };
  throw new AppError('bad_request', 'Name the person by exactly one of --email or --linkedin-url.');
}

/*
 * What the verbs answer is the operator's JSON (`--json`, the admin socket's result line): its
 * keys are snake_case like the HTTP contract's, spelled here from the domain's camelCase summaries.
 */

export function personExportView(result: PersonExport) {
  return { exported_at: result.exportedAt, data: result.data };
}

export function forgetSummaryView(summary: ForgetSummary) {
  return { removed: summary.removed, rows_removed: summary.rowsRemoved };
}

export type ForgetSummaryView = ReturnType<typeof forgetSummaryView>;

export function importSummaryView(s: ImportSummary) {
  return {
    file: s.file,
    format: s.format,
    read: s.read,
    inserted: s.inserted,
    updated: s.updated,
    unchanged: s.unchanged,
    skipped: s.skipped,
    without_personality: s.withoutPersonality,
    errors: s.errors,
    ignored_columns: s.ignoredColumns,
    column_hints: s.columnHints,
    warnings: s.warnings,
    seconds: s.seconds,
    rows_per_second: s.rowsPerSecond,
  };
}
export type ImportSummaryView = ReturnType<typeof importSummaryView>;

export function recomputeSummaryView(s: RecomputeSummary) {
  return {
    model_version: s.modelVersion,
    recomputed: s.recomputed,
    with_personality: s.withPersonality,
    without_personality: s.withoutPersonality,
    up_to_date: s.upToDate,
    seconds: s.seconds,
  };
}
export type RecomputeSummaryView = ReturnType<typeof recomputeSummaryView>;

export const peopleVerbs = {
  /** The log line says which verb ran and how much it removed, never who: no email, URL or name. */
  'people.export': defineVerb(PersonArgs, async (ctx, args) => {
    const result = await exportPerson(ctx.db, forgetKey(args));
    ctx.logger.info({ verb: 'people.export', parts: Object.keys(result.data).length }, 'person data exported');
    return personExportView(result);
  }),
  'people.delete': defineVerb(PersonArgs, async (ctx, args) => {
    const summary = await forgetPerson(ctx.db, forgetKey(args));
    // Their results' users are told by webhook (assessment.deleted): send it now.
    ctx.wakeWorker();
    ctx.logger.info({ verb: 'people.delete', rows_removed: summary.rowsRemoved, removed: summary.removed }, 'person deleted');
    return forgetSummaryView(summary);
  }),

  /**
   * The process that runs the verb reads the file itself: the service, when the CLI goes
   * through its admin socket (local only), so the path must not depend on anyone's cwd.
   */
  'people.import': defineVerb(
    Type.Object({ path: Type.String({ minLength: 1 }), format: Type.Optional(Type.Enum(IMPORT_FORMATS)) }),
    async (ctx, args, progress) => {
      if (!path.isAbsolute(args.path)) throw new AppError('bad_request', `The import path must be absolute, got ${args.path}.`);
      // The model's file too: the import reads texts on worker threads, each loading the same model.
      const deps = { db: ctx.db, model: ctx.model, modelPath: ctx.config.textModelPath ?? DEFAULT_MODEL_PATH, logger: ctx.logger };
      return importSummaryView(await importPeople(deps, args.path, { ...(args.format ? { format: args.format } : {}), progress }));
    },
  ),
  'profiles.recompute': defineVerb(Type.Object({ all: Type.Optional(Type.Boolean()) }), async (ctx, args, progress) =>
    recomputeSummaryView(await recomputeProfiles(ctx, { all: args.all === true, progress })),
  ),
};
