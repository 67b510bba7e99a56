import type { Command } from 'commander';
import { loadConfig } from '../config.ts';
import { AppError } from '../shared/errors.ts';
import { takeStopSignals } from './launcher.ts';

export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('run background jobs (PDF analyses, Connect searches) without serving HTTP; needs DATABASE_URL')
    .action(async () => {
      const config = loadConfig();
      if (!config.databaseUrl) {
        throw new AppError('bad_request', 'Separate workers share a PostgreSQL server: set DATABASE_URL. With the embedded database, `rapport serve` runs the jobs itself.');
      }
      const signals = takeStopSignals();
      const { openDatabase } = await import('../db/open.ts');
      const { createContext } = await import('../context.ts');
      const { createLogger } = await import('../shared/logger.ts');
      const logger = createLogger(config.logLevel, undefined, config.logFormat);
      const opened = await openDatabase(config);
      if (signals.pending !== null) {
        // Stopped while starting: close before any job is claimed.
        logger.info({ signal: signals.pending }, 'worker stopped during its start');
        await opened.close();
        process.exit(0);
      }
      const ctx = createContext(config, opened.db, logger, { runJobs: true });
      logger.info('Rapport worker is running');
      signals.whenUp((signal) => {
        logger.info({ signal }, 'worker stopping: finishing jobs in hand');
        ctx
          .shutdown()
          .then(() => opened.close())
          .then(
            () => {
              logger.info('Rapport worker stopped');
              process.exit(0);
            },
            (error: unknown) => {
              logger.error({ err: error }, 'the worker could not stop cleanly');
              process.exit(1);
            },
          );
      });
    });
}
