import cluster from 'node:cluster';
import path from 'node:path';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { metricsSourceOf, startOpsListener, type OpsListener } from './http/ops-listener/listener.ts';
import { closeWithin } from './http/common/connection-limits.ts';
import { refusedPortWarnings } from './http/common/refused-ports.ts';
import { buildBaseApp, buildConnectApp } from './app.ts';
import { checkProductionLinks, type Config } from './config.ts';
import { createContext, type AppContext } from './context.ts';
import { loadContent } from './content/load-content.ts';
import { openDatabase } from './db/open.ts';
import { makePrivate, openDirectoryWarning, PRIVATE_UMASK } from './db/private-files.ts';
import { releaseOrphanedJobs } from './jobs/queue.ts';
import { analysesInProgress } from './analysis/repository.ts';
import { warmNameSearch, type WarmUpResult } from './connect/warm-up.ts';
import { listenAdminSocket } from './operator/admin-socket.ts';
import { shareMetricsWithPrimary } from './monitoring/cluster-metrics.ts';
import { reportVitalsToPrimary } from './monitoring/cluster-vitals.ts';
import { VitalSigns } from './monitoring/vital-signs.ts';
import { seedDemoData } from './people/demo/seed.ts';
import { createLogger } from './shared/logger.ts';

export interface RunningService {
  ctx: AppContext;
  base: FastifyInstance;
  connect: FastifyInstance;
  /** The name search's warm-up after listening: how it ended, or null when it failed (logged). */
  nameSearchWarmUp: Promise<WarmUpResult | null>;
  /** Stops accepting, lets in-flight requests finish, flushes counts, closes the database. */
  stop(): Promise<void>;
}

/** Unix socket paths are limited to ~107 bytes; fall back to the temp dir for deep data dirs. */
function adminSocketPath(dataDir: string): string {
  const inside = path.join(dataDir, 'admin.sock');
  if (Buffer.byteLength(inside) < 100) return inside;
  return path.join(tmpdir(), `rapport-${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}.sock`);
}

export interface StartOptions {
  /** Where the content files are (src/content by default): a copy being edited, say. */
  contentDir?: string;
}

export async function startService(config: Config, options: StartOptions = {}): Promise<RunningService> {
  checkProductionLinks(config);
  // Before anything opens: a broken content file stops the start with its path and problem.
  const content = loadContent(options.contentDir);
  // Whatever this process writes (the database, uploads, the lock, backups) is its user's alone.
  process.umask(PRIVATE_UMASK);
  const logger = createLogger(config.logLevel, undefined, config.logFormat);
  const opened = await openDatabase(config);
  if (!config.databaseUrl) {
    const warning = openDirectoryWarning(config.dataDir, 'RAPPORT_DATA_DIR');
    if (warning) logger.warn({ data_dir: config.dataDir }, warning);
  }
  // Under `serve --processes N` every process has the same ports: the first one says it.
  if (!cluster.isWorker || cluster.worker?.id === 1) for (const warning of refusedPortWarnings(config)) logger.warn(warning);
  // Uploads written by an older version under umask 022.
  makePrivate(config.uploadDir);
  // With the embedded database no other process can be running jobs: take back any left running.
  if (opened.lock) await releaseOrphanedJobs(opened.db);
  let redis: Redis | undefined;
  try {
    // ioredis (~40 modules) loads only where REDIS_URL asks for it.
    redis = config.redisUrl === null ? undefined : await (await import('./shared/redis.ts')).connectRedis(config.redisUrl);
  } catch (error) {
    await opened.close();
    throw error;
  }
  const ctx = createContext(config, opened.db, logger, { runJobs: config.inProcessWorker, content, ...(redis ? { redis } : {}) });
  // Under `serve --processes N`, /metrics answers with the sum over every process.
  const stopSharingMetrics = cluster.isWorker ? shareMetricsWithPrimary(ctx.metrics) : () => undefined;
  // Uploads of analyses that ended, or of uploads cut off by a crash, are no longer needed.
  const swept = await ctx.spool.sweep(await analysesInProgress(opened.db));
  if (swept > 0) logger.info({ files: swept }, 'removed leftover uploads');
  if (config.demoData) await seedDemoData(ctx);
  let admin: Server | null = null;
  const base = await buildBaseApp(ctx, { warmSerializers: true });
  const connect = await buildConnectApp(ctx, { warmSerializers: true });
  let ops: OpsListener | null = null;
  let vitals: VitalSigns | null = null;
  let stopReporting = () => {};
  const closeApps = async () => {
    const grace = config.http.shutdownTimeoutMs;
    await Promise.allSettled([closeWithin(base, grace), closeWithin(connect, grace), ops?.close()]);
    stopReporting();
    vitals?.close();
  };
  try {
    // Every app compiles its routes (and warms its serializers) before the first one listens:
    // done after, that work held up the first requests, health checks included, for ~0.3 s.
    await Promise.all([base.ready(), connect.ready()]);
    await base.listen({ host: config.host, port: config.port });
    await connect.listen({ host: config.host, port: config.connectPort });
    if (config.metricsPort !== null) {
      // RAPPORT_METRICS_PORT (src/http/ops-listener/): this process's own thread serves it; under
      // `serve --processes N` the primary does, from every process's signs (src/cli/cluster.ts).
      vitals = await VitalSigns.start(() => ctx.db.ping());
      if (cluster.isWorker) stopReporting = reportVitalsToPrimary(vitals);
      else {
        const metrics = metricsSourceOf(ctx.metrics);
        ops = await startOpsListener({ config, port: config.metricsPort, databaseKind: opened.db.kind, vitals: vitals.buffer, metrics, logger });
      }
    }
    if (opened.lock) {
      const socket = adminSocketPath(config.dataDir);
      admin = await listenAdminSocket(ctx, socket);
      opened.lock.setAdminSocket(socket);
    }
  } catch (error) {
    await closeApps();
    stopSharingMetrics();
    await ctx.shutdown();
    redis?.disconnect();
    await opened.close();
    throw error;
  }
  // The name search warms up in the background once the service listens (src/connect/warm-up.ts):
  // /healthz and the first callers are answered meanwhile; a stop ends it after its current search.
  const warmUp = new AbortController();
  const warming = warmNameSearch(ctx.db, ctx.recommendations, warmUp.signal).then(
    (result) => {
      logger.info({ searches: result.searches, ms: result.ms, ended: result.ended, cpu_us_a_search: result.lastRoundCpuUs }, 'name search warmed up');
      return result;
    },
    (error: unknown) => {
      logger.warn({ err: error }, 'name search warm-up stopped');
      return null;
    },
  );
  // The PDF, text and DISC map worker threads start on first use (the first upload waits
  // ~0.3 s for its thread): an idle service holds none of them (docs/operations.md, memory).
  logger.info(
    {
      database: opened.db.kind,
      port: config.port,
      connect_port: config.connectPort,
      metrics_port: ops?.port,
      rate_limits: redis ? 'redis' : 'in-process',
    },
    'Rapport is listening',
  );
  return {
    ctx,
    base,
    connect,
    nameSearchWarmUp: warming,
    async stop() {
      admin?.close();
      warmUp.abort();
      await closeApps();
      await warming;
      stopSharingMetrics();
      await ctx.shutdown();
      redis?.disconnect();
      await opened.close();
      logger.info('Rapport stopped');
    },
  };
}
