import cluster from 'node:cluster';
import type { Command } from 'commander';
import { loadConfig } from '../config.ts';
import type { RunningService } from '../server.ts';
import { AppError } from '../shared/errors.ts';
import { takeStopSignals } from './launcher.ts';

function readProcesses(raw: string): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1 || value > 256) throw new AppError('bad_request', `--processes must be a whole number from 1 to 256, got "${raw}".`);
  return value;
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('start the service: {base_url} on PORT (8080), {connect_url} on CONNECT_PORT (8081)')
    .option('--processes <n>', 'API processes sharing the ports (more than one needs DATABASE_URL)', '1')
    .action(async (options: { processes: string }) => {
      const config = loadConfig();
      const processes = readProcesses(options.processes);
      if (processes > 1 && cluster.isPrimary) {
        if (!config.databaseUrl) {
          throw new AppError('bad_request', 'Several API processes share a PostgreSQL server: set DATABASE_URL. The embedded database admits one process.');
        }
        const { createLogger } = await import('../shared/logger.ts');
        const { runPrimary } = await import('./cluster.ts');
        await runPrimary(processes, config, createLogger(config.logLevel, undefined, config.logFormat));
        return;
      }
      const signals = takeStopSignals();
      // A start always ends: the embedded database opens from disk, PostgreSQL's first connection
      // has a deadline (src/db/postgres.ts). A failed one exits through main's error handler.
      const { startService } = await import('../server.ts');
      const service = await startService(config).catch((error: unknown) => {
        if (cluster.isWorker) leaveCluster();
        throw error;
      });
      signals.whenUp((signal) => shutDown(service, signal));
    });
}

function shutDown(service: RunningService, signal: string): void {
  service.ctx.logger.info({ signal }, 'shutting down: finishing in-flight requests');
  service.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      service.ctx.logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    },
  );
}

/**
 * Under --processes, the channel to the primary keeps an API process alive: one that failed to
 * start (main.ts prints why) must leave, so that the primary sees it and stops the service.
 */
function leaveCluster(): void {
  process.exitCode = 1;
  cluster.worker?.disconnect();
  // Whatever else might hold the process open, it goes.
  setTimeout(() => process.exit(1), 5000).unref();
}
