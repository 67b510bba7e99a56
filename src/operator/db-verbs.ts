import { Type } from 'typebox';
import { writeBackup } from '../db/backup.ts';
import { defineVerb } from './verb.ts';

export const dbVerbs = {
  /**
   * Runs in the process that holds the database: the service, when the CLI goes through its
   * admin socket, so the path is absolute and the file is written by the service's user.
   */
  'db.backup': defineVerb(Type.Object({ path: Type.String({ minLength: 1 }), force: Type.Optional(Type.Boolean()) }), async (ctx, args) => {
    // Calls counted in memory reach the database first, so the backup's usage is up to date.
    await ctx.meter.flush();
    return writeBackup(ctx.db, args.path, { force: args.force === true });
  }),
};
