import { loadConfig, type Config } from '../config.ts';
import { openExecutor, type Executor } from './executor.ts';

/** Loads config, opens an executor, runs `fn`, always closes. Errors reach main's handler. */
export async function withExecutor<T>(fn: (executor: Executor, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig();
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
