import cluster, { type Worker } from 'node:cluster';
import { Registry } from 'prom-client';
import { opsMetricsSource, startOpsListener, type OpsListener } from '../http/ops-listener/listener.ts';
import type { Config } from '../config.ts';
import { aggregateWorkerMetrics } from '../monitoring/cluster-metrics.ts';
import { gatherWorkerVitals } from '../monitoring/cluster-vitals.ts';
import { requestMetrics } from '../monitoring/metrics.ts';
import type { Logger } from '../shared/logger.ts';
import { watchLauncher } from './launcher.ts';

/** A process that died this soon after its start is not restarted in a loop: the start itself fails. */
const EARLY_EXIT_MS = 10_000;

/**
 * `rapport serve --processes N`: N API processes sharing the two ports (Node's cluster module;
 * the operating system hands each connection to one of them). The first starts alone, so
 * migrations and the demo data run once; the others follow. A process that dies later is
 * replaced; SIGTERM/SIGINT are passed on and the primary exits when all have stopped. A scrape
 * of /metrics, whichever process gets it, is answered with the sum over all of them.
 * RAPPORT_METRICS_PORT is served here, by the primary, for all of them (src/monitoring/cluster-vitals.ts);
 * started first, so that a port in use stops the start before any API process runs.
 */
export async function runPrimary(processes: number, config: Config, logger: Logger): Promise<void> {
  // The primary's own requests (its operations listener's) are counted here and summed with
  // the API processes' in every scrape.
  const own = new Registry();
  const gatherMetrics = aggregateWorkerMetrics(own);
  let ops: OpsListener | null = null;
  if (config.metricsPort !== null) {
    const metrics = opsMetricsSource(gatherMetrics, Registry.PROMETHEUS_CONTENT_TYPE, requestMetrics(own));
    ops = await startOpsListener({ config, port: config.metricsPort, databaseKind: 'postgres', vitals: gatherWorkerVitals(), metrics, logger });
    logger.info({ metrics_port: ops.port, processes }, 'operations listener (RAPPORT_METRICS_PORT) up; starting the API processes');
  }
  let stopping = false;
  /** Per API process: when it was forked, and whether it has listened (one that exits before failed to start). */
  const started = new Map<number, { at: number; listened: boolean }>();
  cluster.on('listening', (worker) => {
    const entry = started.get(worker.id);
    if (entry) entry.listened = true;
  });

  const fork = (): Worker => {
    const worker = cluster.fork();
    started.set(worker.id, { at: Date.now(), listened: false });
    return worker;
  };

  const first = fork();
  first.once('listening', () => {
    for (let i = 1; i < processes; i += 1) fork();
  });

  cluster.on('exit', (worker, code, signal) => {
    const pid = worker.process.pid ?? 0;
    const entry = started.get(worker.id);
    started.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    if (!entry?.listened || Date.now() - entry.at < EARLY_EXIT_MS) {
      logger.error({ pid, code, signal }, 'an API process failed during start-up; stopping the others');
      stopAll('start-up failure', 1);
      return;
    }
    logger.error({ pid, code, signal }, 'an API process died; starting a new one');
    fork();
  });

  function stopAll(reason: string, exitCode = 0): void {
    if (stopping) return;
    stopping = true;
    logger.info({ reason }, 'stopping the API processes');
    // Health checks now fail (connection refused): nothing is to be sent here any more.
    void ops?.close();
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    if (workers.length === 0) process.exit(exitCode);
    for (const worker of workers) worker.process.kill('SIGTERM');
    if (exitCode !== 0) process.exitCode = exitCode;
  }

  process.once('SIGTERM', () => stopAll('SIGTERM'));
  process.once('SIGINT', () => stopAll('SIGINT'));
  watchLauncher(() => stopAll('launcher exited'));
}
