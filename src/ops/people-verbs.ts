import path from 'node:path';
import { Type } from 'typebox';
import { IMPORT_FORMATS, importPeople } from '../people/import.ts';
import { recomputeProfiles } from '../people/recompute.ts';
import { AppError } from '../shared/errors.ts';
import { defineVerb } from './verb.ts';

export const peopleVerbs = {
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
