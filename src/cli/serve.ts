import cluster from 'node:cluster';
import type { Command } from 'commander';
import { loadConfig } from '../config.ts';
import { AppError } from '../shared/errors.ts';

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
        runPrimary(processes, createLogger(config.logLevel));
        return;
      }
      const { startService } = await import('../server.ts');
      const service = await startService(config);
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        service.ctx.logger.info({ signal }, 'shutting down: finishing in-flight requests');
        service.stop().then(
          () => process.exit(0),
          (error: unknown) => {
            service.ctx.logger.error({ err: error }, 'shutdown failed');
            process.exit(1);
          },
        );
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
      watchLauncher(() => stop('launcher exited'));
    });
}

/**
 * Under `npm start` the script line is `exec node …`, so npm's child is this process and the
 * SIGTERM a process manager sends npm is forwarded here. Should the launcher die without
 * forwarding (SIGKILL, an older npm, a shell wrapper), this process would be left holding the
 * data directory; so while started by npm it stops when its parent goes.
 */
function watchLauncher(onGone: () => void): void {
  if (!process.env.npm_lifecycle_event) return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      onGone();
    }
  }, 500);
  timer.unref();
}
