import { Command } from 'commander';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { DataDirBusyError } from '../db/data-dir-lock.ts';
import { PRIVATE_UMASK } from '../db/private-files.ts';
import { isAppError } from '../shared/errors.ts';
import { packageVersion } from '../shared/version.ts';
import { registerAnalyzeCommand } from './analyze.ts';
import { registerDbCommands } from './db.ts';
import { registerForgetCommands } from './forget.ts';
import { registerPeopleCommands } from './people.ts';
import { registerServeCommand } from './serve.ts';
import { registerTokenCommands } from './tokens.ts';
import { registerUserCommands } from './users.ts';
import { registerWebhookCommands } from './webhooks.ts';
import { registerWorkerCommand } from './worker.ts';

/** The fields Node puts on a failed system call (net, dns). */
interface SystemCallError extends Error {
  code?: unknown;
  syscall?: unknown;
  hostname?: unknown;
  port?: unknown;
}

/** Codes the PostgreSQL server answers a connection with: bad password, no such database, no pg_hba entry. */
const DATABASE_REFUSALS = new Set(['28P01', '3D000', '28000']);
/** Codes of a connection that did not get through. Listening never fails with these but for a HOST that does not resolve. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT']);

function configuration(): Config | null {
  try {
    return loadConfig();
  } catch {
    return null;
  }
}

function hostnameOf(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

/**
 * A network failure said in terms of the setting to change. The database is named only where
 * one is configured and the failure is not the service's own HOST: `HOST=999.1.1.1` fails to
 * resolve just as a bad database host does, and the database is connected to before listening.
 */
function explainNetwork(error: SystemCallError): string | null {
  const code = typeof error.code === 'string' ? error.code : '';
  const config = configuration();
  if (code === 'EADDRINUSE') return `${error.message}: another program already listens there. Set PORT / CONNECT_PORT to free ports.`;
  const hostname = typeof error.hostname === 'string' ? error.hostname : null;
  const databaseHost = config?.databaseUrl ? hostnameOf(config.databaseUrl) : null;
  const resolvingHost = error.syscall === 'getaddrinfo' && config !== null && hostname === config.host && hostname !== databaseHost;
  if (error.syscall === 'listen' || resolvingHost) {
    const host = config?.host ?? (hostname || 'HOST');
    const port = typeof error.port === 'number' ? error.port : config?.port;
    return `Could not listen on HOST=${host}${port === undefined ? '' : ` port ${port}`}: ${error.message}. Set HOST to an address of this machine (0.0.0.0 for all of them).`;
  }
  if (DATABASE_REFUSALS.has(code) || (config?.databaseUrl && UNREACHABLE.has(code))) {
    return `Could not connect to the database in DATABASE_URL: ${error.message}.`;
  }
  return null;
}

/** Turns any failure into one line a person can act on, never a stack trace. */
function explain(error: unknown): string {
  if (error instanceof ConfigError || isAppError(error)) return error.message;
  if (error instanceof DataDirBusyError) {
    return `${error.message} Stop that process first, or point RAPPORT_DATA_DIR at another directory.`;
  }
  if (!(error instanceof Error)) return String(error);
  return explainNetwork(error) ?? error.message;
}

/** Commander ended the command itself (help, --version, a bad argument), its output written. */
class CommandEnded extends Error {
  constructor(readonly exitCode: number) {
    super(`rapport ended with exit code ${exitCode}`);
  }
}

const guardedStreams = new WeakSet<NodeJS.WriteStream>();

/**
 * A reader that stops early (`rapport tokens list | head -1`) closes the pipe: the next write
 * fails with EPIPE. Like other Unix tools, stop writing and end quietly (exit 0) rather than
 * crash on an unhandled 'error' event; the command itself still finishes and closes the database.
 */
function endQuietlyOnClosedPipe(stream: NodeJS.WriteStream): void {
  // Once per stream: `main` may run several commands in one process (the tests do).
  if (guardedStreams.has(stream)) return;
  guardedStreams.add(stream);
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
    throw error;
  });
}

export async function main(argv: string[]): Promise<void> {
  // What any command writes (a database it creates, a backup, a restore) is this user's alone.
  process.umask(PRIVATE_UMASK);
  endQuietlyOnClosedPipe(process.stdout);
  endQuietlyOnClosedPipe(process.stderr);
  const program = new Command()
    .name('rapport')
    .description('Rapport: self-hosted personality data service')
    .version(packageVersion(), '-V, --version', 'print the version and exit')
    .showHelpAfterError()
    .configureOutput({ outputError: (text, write) => write(text) })
    // Help, --version and argument errors end the command with their exit code instead of
    // calling process.exit, so `main` also runs inside a process that must go on (the tests).
    // Nothing is open at that point, so the process ends with the same code and output.
    .exitOverride((ended) => {
      throw new CommandEnded(ended.exitCode);
    });
  registerServeCommand(program);
  registerTokenCommands(program);
  registerUserCommands(program);
  registerWebhookCommands(program);
  registerPeopleCommands(program);
  registerForgetCommands(program);
  registerAnalyzeCommand(program);
  registerWorkerCommand(program);
  registerDbCommands(program);
  try {
    await program.parseAsync(argv);
  } catch (error) {
    // Commander has already written the help, the version or the argument error.
    if (error instanceof CommandEnded) {
      process.exitCode = error.exitCode;
      return;
    }
    process.stderr.write(`rapport: ${explain(error)}\n`);
    process.exitCode = 1;
  }
}
