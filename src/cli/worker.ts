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
      const opened = await openDatabase(config);
      const ctx = createContext(config, opened.db, logger, { runJobs: true });
      logger.info('Rapport worker is running');
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        logger.info({ signal }, 'worker stopping: finishing jobs in hand');
        void ctx.shutdown().then(() => opened.close()).then(() => process.exit(0));
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
      watchLauncher(() => stop('launcher exited'));
    });
}
