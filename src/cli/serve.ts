import type { Command } from 'commander';
import { loadConfig } from '../config.ts';

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('start the service: {base_url} on PORT (8080), {connect_url} on CONNECT_PORT (8081)')
    .action(async () => {
      const config = loadConfig();
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
