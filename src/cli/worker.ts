import type { Command } from 'commander';
import { loadConfig } from '../config.ts';
import { AppError } from '../shared/errors.ts';
import { watchLauncher } from './launcher.ts';

export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('run background jobs (PDF analyses, Connect searches) without serving HTTP; needs DATABASE_URL')
    .action(async () => {
      const config = loadConfig();
      if (!config.databaseUrl) {
        throw new AppError('bad_request', 'Separate workers share a PostgreSQL server: set DATABASE_URL. With the embedded database, `rapport serve` runs the jobs itself.');
      }
      const { openDatabase } = await import('../db/open.ts');
      const { createContext } = await import('../context.ts');
      const { createLogger } = await import('../shared/logger.ts');
      const logger = createLogger(config.logLevel);
      // Signals are taken before the database is opened, as `serve` does: one that arrives during
      // the start stops the worker cleanly once it is up rather than by the default action.
      let running: { stop: () => Promise<void> } | null = null;
      let stopping: string | null = null;
      const stopNow = (signal: string, worker: { stop: () => Promise<void> }) => {
        logger.info({ signal }, 'worker stopping: finishing jobs in hand');
        void worker.stop().then(() => process.exit(0));
      };
      const stop = (signal: string) => {
        if (stopping !== null) return;
        stopping = signal;
        if (running) stopNow(signal, running);
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
      watchLauncher(() => stop('launcher exited'));
      const opened = await openDatabase(config);
      const ctx = createContext(config, opened.db, logger, { runJobs: true });
      running = { stop: () => ctx.shutdown().then(() => opened.close()) };
      logger.info('Rapport worker is running');
      if (stopping !== null) stopNow(stopping, running);
    });
}
