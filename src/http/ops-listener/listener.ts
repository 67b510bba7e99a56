import { Worker } from 'node:worker_threads';
import type { Config } from '../../config.ts';
import type { Metrics, RequestMetrics } from '../../monitoring/metrics.ts';
import { DEFAULT_HEALTH_LIMITS, type HealthLimits } from '../../monitoring/vital-signs.ts';
import type { Logger } from '../../shared/logger.ts';
import { workerEntry } from '../../shared/worker-entry.ts';
import type { FromOpsThread, OpsThreadData, ToOpsThread } from './messages.ts';

const THREAD_URL = workerEntry(import.meta.url, './thread.ts', './thread-boot.mjs');

/** A thread that ends within this after being told to close is not terminated. */
const CLOSE_GRACE_MS = 2000;

export interface OpsListener {
  /** The port it listens on (the one asked for, or the one the system chose for port 0). */
  readonly port: number;
  close(): Promise<void>;
}

/** What `/metrics` answers with, and where the listener's own requests are counted. */
export interface OpsMetricsSource {
  text(): Promise<string>;
  readonly contentType: string;
  served(route: string, method: string, status: number, seconds: number): void;
}

/** The listener's requests, counted in `counted` (group "ops"), and `/metrics` answered with `text`. */
export function opsMetricsSource(text: () => Promise<string>, contentType: string, counted: RequestMetrics): OpsMetricsSource {
  return {
    text,
    contentType,
    served(route, method, status, seconds) {
      counted.requests.inc({ group: 'ops', route, method, status: String(status) });
      counted.latency.observe({ group: 'ops', route, method }, seconds);
    },
  };
}

/** A process's own metrics, its listener's requests counted among them. */
export function metricsSourceOf(metrics: Metrics): OpsMetricsSource {
  return opsMetricsSource(() => metrics.text(), metrics.registry.contentType, metrics);
}

export interface OpsListenerOptions {
  config: Pick<Config, 'metricsHost' | 'metricsToken' | 'http' | 'logLevel' | 'logFormat'>;
  port: number;
  databaseKind: 'embedded' | 'postgres';
  /** The vital signs' buffer (src/monitoring/vital-signs.ts): this process's, or (the cluster's primary) all API processes' worst. */
  vitals: SharedArrayBuffer;
  metrics: OpsMetricsSource;
  logger: Logger;
  limits?: HealthLimits;
}

/**
 * Starts RAPPORT_METRICS_PORT's listener in its own thread (./thread.ts): it answers health
 * checks however busy the main thread is, from the vital signs that thread keeps. Resolves once
 * it listens; rejects with the reason it could not (a port in use).
 */
export async function startOpsListener(options: OpsListenerOptions): Promise<OpsListener> {
  const { config, metrics, logger } = options;
  const data: OpsThreadData = {
    host: config.metricsHost,
    port: options.port,
    metricsToken: config.metricsToken,
    http: config.http,
    logLevel: config.logLevel,
    logFormat: config.logFormat,
    databaseKind: options.databaseKind,
    vitals: options.vitals,
    limits: options.limits ?? DEFAULT_HEALTH_LIMITS,
  };
  const thread = new Worker(THREAD_URL, { execArgv: [], resourceLimits: { maxOldGenerationSizeMb: 64 }, workerData: data });
  const tell = (message: ToOpsThread) => thread.postMessage(message);
  let stopping = false;
  const port = await new Promise<number>((resolve, reject) => {
    const failed = (error: Error) => reject(error);
    thread.once('error', failed);
    thread.once('exit', (code) => failed(new Error(`The operations listener's thread exited (code ${code}) before it listened.`)));
    thread.on('message', (message: FromOpsThread) => {
      if (message.type === 'listening') resolve(message.port);
      else if (message.type === 'listen_failed') {
        const code = message.code === undefined ? '' : ` (${message.code})`;
        reject(new Error(`RAPPORT_METRICS_PORT: cannot listen on ${config.metricsHost}:${options.port}${code}: ${message.message}`));
      }
    });
  }).catch(async (error: unknown) => {
    await thread.terminate();
    throw error;
  });
  thread.removeAllListeners('error');
  thread.removeAllListeners('exit');
  thread.on('message', (message: FromOpsThread) => {
    if (message.type === 'served') {
      metrics.served(message.route, message.method, message.status, message.seconds);
    } else if (message.type === 'scrape') {
      metrics.text().then(
        (text) => tell({ type: 'scraped', id: message.id, text, contentType: metrics.contentType }),
        (error: unknown) => tell({ type: 'scrape_failed', id: message.id, message: error instanceof Error ? error.message : String(error) }),
      );
    }
  });
  // Without it health checks fail (refused connections), which is what they should then do: say so.
  thread.on('error', (error) => logger.error({ err: error }, 'the operations listener (RAPPORT_METRICS_PORT) failed'));
  const ended = new Promise<void>((resolve) =>
    thread.once('exit', (code) => {
      if (!stopping) logger.error({ code }, 'the operations listener (RAPPORT_METRICS_PORT) stopped');
      resolve();
    }),
  );
  // The service's own listeners keep the process running; this thread must not on its own.
  thread.unref();
  return {
    port,
    async close() {
      stopping = true;
      tell({ type: 'close' });
      const grace = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), CLOSE_GRACE_MS).unref());
      if ((await Promise.race([ended, grace])) === 'late') await thread.terminate();
    },
  };
}
