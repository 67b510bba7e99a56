import path from 'node:path';
import { Type } from 'typebox';
import { exportPerson, forgetPerson, type ForgetKey } from '../people/forget.ts';
import { IMPORT_FORMATS, importPeople } from '../people/import.ts';
import { recomputeProfiles } from '../people/recompute.ts';
import { AppError } from '../shared/errors.ts';
import { defineVerb } from './verb.ts';

/** One person, named by exactly one of email or linkedin_url (the CLI's --email / --linkedin-url). */
const PersonArgs = Type.Object({ email: Type.Optional(Type.String({ minLength: 1 })), linkedin_url: Type.Optional(Type.String({ minLength: 1 })) });

function forgetKey(args: { email?: string | undefined; linkedin_url?: string | undefined }): ForgetKey {
  if (args.email !== undefined && args.linkedin_url === undefined) return { email: args.email };
  if (args.linkedin_url !== undefined && args.email === undefined) return { linkedinUrl: args.linkedin_url };
  throw new AppError('bad_request', 'Name the person by exactly one of --email or --linkedin-url.');
}

export const peopleVerbs = {
  /** The log line says which verb ran and how much it removed, never who: no email, URL or name. */
  'people.export': defineVerb(PersonArgs, async (ctx, args) => {
    const result = await exportPerson(ctx.db, forgetKey(args));
    ctx.logger.info({ verb: 'people.export', parts: Object.keys(result.data).length }, 'person data exported');
    return result;
  }),
  'people.delete': defineVerb(PersonArgs, async (ctx, args) => {
    const summary = await forgetPerson(ctx.db, forgetKey(args));
    // Their results' users are told by webhook (assessment.deleted): send it now.
    ctx.wakeWorker();
    ctx.logger.info({ verb: 'people.delete', rows_removed: summary.rows_removed, removed: summary.removed }, 'person deleted');
    return summary;
  }),

  /**
   * The process that runs the verb reads the file itself: the service, when the CLI goes
   * through its admin socket (local only), so the path must not depend on anyone's cwd.
   */
  'people.import': defineVerb(
    Type.Object({ path: Type.String({ minLength: 1 }), format: Type.Optional(Type.Union(IMPORT_FORMATS.map((f) => Type.Literal(f)))) }),
    async (ctx, args, progress) => {
      if (!path.isAbsolute(args.path)) throw new AppError('bad_request', `The import path must be absolute, got ${args.path}.`);
      return importPeople(ctx, args.path, { ...(args.format ? { format: args.format } : {}), progress });
    },
  ),
  'profiles.recompute': defineVerb(Type.Object({ all: Type.Optional(Type.Boolean()) }), async (ctx, args, progress) =>
    recomputeProfiles(ctx, { all: args.all === true, progress }),
  ),
};
