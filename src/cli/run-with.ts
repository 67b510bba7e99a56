import { loadConfig, type Config } from '../config.ts';
import type { Executor } from './executor.ts';

/** Loads config, opens an executor, runs `fn`, always closes. Errors reach main's handler. */
export async function withExecutor<T>(fn: (executor: Executor, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig();
  // Loaded on demand so `rapport --help` and argument errors answer without loading the database.
  const { openExecutor } = await import('./executor.ts');
  const executor = await openExecutor(config);
  try {
    return await fn(executor, config);
  } finally {
    await executor.close();
  }
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
