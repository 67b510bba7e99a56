import { request } from 'node:http';
import type { Config } from '../config.ts';
import { createContext } from '../context.ts';
import { readLock } from '../db/data-dir-lock.ts';
import { openDatabase } from '../db/open.ts';
import { toJson, type Jsonify } from '../operator/json.ts';
import { runVerb, type VerbArgs, type VerbName, type VerbResult } from '../operator/verbs.ts';
import type { Progress } from '../shared/progress.ts';
import { AppError, ERROR_CODES, type ErrorCode } from '../shared/errors.ts';
import { createLogger } from '../shared/logger.ts';
import { hasStoredDatabase, noStoredDatabase } from './stored-database.ts';

/**
 * What a verb's result is to the CLI: its JSON form, whichever way the verb ran (a `Date` is an
 * ISO string, as the admin socket's JSON line carries it).
 */
export type CallResult<N extends VerbName> = Jsonify<VerbResult<N>>;

/** Runs operator verbs: in this process, or through the running service's admin socket. */
export interface Executor {
  readonly via: 'local' | 'service';
  call<N extends VerbName>(verb: N, args: VerbArgs<N>, progress?: Progress): Promise<CallResult<N>>;
  close(): Promise<void>;
}

function toErrorCode(value: unknown): ErrorCode {
  return ERROR_CODES.find((c) => c === value) ?? 'internal';
}

function callSocket(socketPath: string, verb: string, args: unknown, progress: Progress): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, method: 'POST', path: `/rpc/${verb}`, headers: { 'content-type': 'application/json' } }, (res) => {
      let buffer = '';
      let settled = false;
      res.setEncoding('utf8');
      const handle = (line: string) => {
        if (!line.trim()) return;
        const message = JSON.parse(line) as { progress?: Record<string, unknown>; result?: unknown; error?: { code: string; message: string } };
        if (message.progress) progress(message.progress);
        else if (message.error) {
          settled = true;
          reject(new AppError(toErrorCode(message.error.code), message.error.message));
        } else if ('result' in message) {
          settled = true;
          resolve(message.result);
        }
      };
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let newline = buffer.indexOf('\n');
        while (newline >= 0) {
          handle(buffer.slice(0, newline));
          buffer = buffer.slice(newline + 1);
          newline = buffer.indexOf('\n');
        }
      });
      res.on('end', () => {
        handle(buffer);
        if (!settled) reject(new AppError('unavailable', 'The service closed the connection before answering.'));
      });
    });
    req.on('error', reject);
    req.end(JSON.stringify(args));
  });
}

const NEITHER =
  'It holds the embedded database but does not answer on its admin socket yet. Wait until it has started and try again, or stop it (Ctrl-C or SIGTERM) and run the command again.';

export async function openExecutor(config: Config, options: { existing?: boolean } = {}): Promise<Executor> {
  if (!config.databaseUrl) {
    const holder = readLock(config.dataDir);
    if (holder) {
      const socket = holder.adminSocket;
      if (!socket) throw new AppError('unavailable', `A Rapport service (process ${holder.pid}) is starting in ${config.dataDir}. ${NEITHER}`);
      return {
        via: 'service',
        call: <N extends VerbName>(verb: N, args: VerbArgs<N>, progress: Progress = () => undefined) =>
          callSocket(socket, verb, args, progress).then(
            // The service ran this verb and sent its result as JSON: the JSON form of VerbResult<N>.
            (result) => result as CallResult<N>,
            (error: unknown) => {
              if (error instanceof AppError) throw error;
              throw new AppError('unavailable', `Could not reach the Rapport service (process ${holder.pid}) at ${socket}. ${NEITHER}`);
            },
          ),
        close: async () => undefined,
      };
    }
  }
  const fresh = !hasStoredDatabase(config);
  if (fresh && options.existing) throw noStoredDatabase(config);
  const opened = await openDatabase(config);
  // The usual slip: a service started elsewhere (another RAPPORT_DATA_DIR or working directory)
  // and this command quietly making a database of its own that the service never sees.
  if (fresh) {
    process.stderr.write(
      `rapport: there was no database in ${config.dataDir}: created a new one. A service running with another RAPPORT_DATA_DIR (or from another directory) will not see what this command writes: run it with that service's RAPPORT_DATA_DIR.\n`,
    );
  }
  // Most verbs read and write rows only: the text model and the content load if a verb reads them.
  const ctx = createContext(config, opened.db, createLogger('silent'), { runJobs: false, loadOnFirstUse: true });
  return {
    via: 'local',
    // Through JSON here too, so a command sees the same values whether the service runs or not.
    call: async <N extends VerbName>(verb: N, args: VerbArgs<N>, progress: Progress = () => undefined) => toJson(await runVerb(ctx, verb, args, progress)),
    async close() {
      await ctx.shutdown();
      await opened.close();
    },
  };
}
