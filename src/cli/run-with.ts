import { loadConfig, type Config } from '../config.ts';
import type { Executor } from './executor.ts';

/**
 * Loads config, opens an executor, runs `fn`, always closes. Errors reach main's handler.
 * `existing`: the command only reads or changes what is stored, so on a data directory with no
 * embedded database it says so instead of creating one (~40 MB) to find nothing there.
 */
export async function withExecutor<T>(fn: (executor: Executor, config: Config) => Promise<T>, options: { existing?: boolean } = {}): Promise<T> {
  const config = loadConfig();
  // Loaded on demand so `rapport --help` and argument errors answer without loading the database.
  const { openExecutor } = await import('./executor.ts');
  const executor = await openExecutor(config, options);
  try {
    return await fn(executor, config);
  } finally {
    await executor.close();
  }
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
