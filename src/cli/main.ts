import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { ConfigError } from '../config.ts';
import { DataDirBusyError } from '../db/data-dir-lock.ts';
import { isAppError } from '../shared/errors.ts';
import { registerAnalyzeCommand } from './analyze.ts';
import { registerPeopleCommands } from './people.ts';
import { registerServeCommand } from './serve.ts';
import { registerTokenCommands } from './tokens.ts';
import { registerWorkerCommand } from './worker.ts';

/** Turns any failure into one line a person can act on, never a stack trace. */
function explain(error: unknown): string {
  if (error instanceof ConfigError || isAppError(error)) return error.message;
  if (error instanceof DataDirBusyError) {
    return `${error.message} Stop that process first, or point RAPPORT_DATA_DIR at another directory.`;
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return `${(error as Error).message}: another program already listens there. Set PORT / CONNECT_PORT to free ports.`;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === '28P01' || code === '3D000') {
    return `Could not connect to the database in DATABASE_URL: ${(error as Error).message}.`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * The version in package.json, the one place it is kept. Read from the file next to the sources
 * rather than npm's environment, because bin/rapport.mjs is also run directly with node.
 */
function packageVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  const version = typeof manifest === 'object' && manifest !== null ? (manifest as { version?: unknown }).version : undefined;
  return typeof version === 'string' ? version : 'unknown';
}

export async function main(argv: string[]): Promise<void> {
  const program = new Command()
    .name('rapport')
    .description('Rapport: self-hosted personality data service')
    .version(packageVersion(), '-V, --version', 'print the version and exit')
    .showHelpAfterError()
    .configureOutput({ outputError: (text, write) => write(text) });
  registerServeCommand(program);
  registerTokenCommands(program);
  registerPeopleCommands(program);
  registerAnalyzeCommand(program);
  registerWorkerCommand(program);
  try {
    await program.parseAsync(argv);
  } catch (error) {
    process.stderr.write(`rapport: ${explain(error)}\n`);
    process.exitCode = 1;
  }
}
