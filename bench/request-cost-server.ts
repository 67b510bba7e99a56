/**
 * One step of bench/request-cost.ts: a Fastify server answering `GET /v1/usage` with the
 * service's own hooks and plugins added one at a time, up to STEP (cumulative), so each step's
 * price is its figure against the step before. Run as its own process (like the service), it
 * tells the bench its address over IPC; its log lines go to stdout, which the bench points at a
 * file, as a deployment points it at a collector.
 *
 * STEP=full builds the whole base app (buildBaseApp) from the checkout at ROOT (this one by
 * default), so another checkout's service can be priced in the same run.
 *
 * Each step sets up only what it uses: a step before `token lookup` opens no database and builds
 * no context (its metrics and overload monitor are made alone), so the early steps are a bare
 * Fastify server plus their pieces, as bench/bare-server.ts (the `bare` step, run by
 * bench/request-cost.ts itself) is a bare Fastify server alone.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import multipart from '@fastify/multipart';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { AnnualUsage, usageData } from '../src/http/common/usage.ts';
import { installTokenAuth, bearerToken, tokenOf } from '../src/http/common/auth.ts';
import { installBodyParsers, NO_BODY } from '../src/http/common/body-caps.ts';
import { clientErrorHandler, MAX_HEADER_BYTES } from '../src/http/common/client-errors.ts';
import { limitConnections, serverTimeoutOptions } from '../src/http/common/connection-limits.ts';
import { installErrorHandling } from '../src/http/common/errors.ts';
import { installInputTextGuard } from '../src/http/common/input-text.ts';
import { installLoadShedding } from '../src/http/common/load-shedding.ts';
import { installRequestMetrics } from '../src/http/common/metrics.ts';
import { installRequestLog, lazyRequestLogger, requestIdFor } from '../src/http/common/request-log.ts';
import { installResponseHeaders } from '../src/http/common/response-headers.ts';
import { refuseJsonSentAsForm } from '../src/http/common/wrong-door.ts';
import type { AppContext } from '../src/context.ts';
import type { Db } from '../src/db/client.ts';
import { Metrics } from '../src/monitoring/metrics.ts';
import { OverloadMonitor } from '../src/monitoring/overload.ts';
import { STEPS, type Step } from './request-cost-steps.ts';

const root = process.env.ROOT ?? path.resolve(import.meta.dirname, '..');
const step = process.env.STEP ?? 'full';
const upTo = step === 'full' ? STEPS.length : STEPS.findIndex((name) => name === step) + 1;
if (upTo <= 1) throw new Error(`unknown STEP ${step} (the bare step is bench/bare-server.ts)`);
const has = (name: Step) => STEPS.indexOf(name) < upTo;

const from = async <T>(file: string): Promise<T> => (await import(pathToFileURL(path.join(root, file)).href)) as T;
const { createLogger } = await from<typeof import('../src/shared/logger.ts')>('src/shared/logger.ts');
const logger = createLogger('info');

interface Opened {
  ctx: AppContext;
  close(): Promise<void>;
  secret: string;
  limitedSecret: string;
}

/** The database, the context and the bench's tokens: for the steps that read them. */
async function openService(): Promise<Opened> {
  const { loadConfig } = await from<typeof import('../src/config.ts')>('src/config.ts');
  const { openDatabase } = await from<typeof import('../src/db/open.ts')>('src/db/open.ts');
  const { createContext } = await from<typeof import('../src/context.ts')>('src/context.ts');
  const { createToken } = await from<typeof import('../src/access/tokens.ts')>('src/access/tokens.ts');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rapport-request-cost-'));
  const config = loadConfig({ ...process.env, RAPPORT_DATA_DIR: dataDir, RAPPORT_DEMO_DATA: 'false', LOG_LEVEL: 'info' });
  const opened = await openDatabase(config);
  const ctx: AppContext = createContext(config, opened.db, logger, { runJobs: false, loadOnFirstUse: true });
  // No limits, like bench/http.ts's token: the limits step adds a per-minute limit far above the load.
  const { secret } = await createToken(opened.db, { kind: 'enterprise', name: 'bench', limits: { rateLimitPerMinute: null, monthlyQuota: null } });
  const limited = await createToken(opened.db, { kind: 'enterprise', name: 'bench-limited', limits: { rateLimitPerMinute: 100_000_000, monthlyQuota: 1_000_000_000 } });
  return {
    ctx,
    secret,
    limitedSecret: limited.secret,
    async close() {
      await ctx.shutdown();
      await opened.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The metrics and overload steps never scrape, so their metrics get a database that cannot be read. */
const refuse = async (): Promise<never> => {
  throw new Error('no database in this step');
};
const noDatabase: Db = { kind: 'embedded', query: refuse, run: refuse, exec: refuse, transaction: refuse, ping: refuse, close: refuse };

const service = step === 'full' || has('token lookup') ? await openService() : null;
const metrics = service?.ctx.metrics ?? (has('metrics') ? new Metrics(noDatabase) : null);
const overload = service?.ctx.overload ?? (has('overload guard') ? new OverloadMonitor({ maxEventLoopDelayMs: 0, maxHeapUsedBytes: 0 }) : null);

async function stepped(): Promise<FastifyInstance> {
  const base: FastifyBaseLogger = logger;
  const config = service?.ctx.config;
  const timeouts = config && has('server timeouts + trust proxy') ? serverTimeoutOptions(config.http) : null;
  const app = Fastify({
    ...(timeouts && config
      ? {
        ...timeouts,
        http: { ...timeouts.http, maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false },
        trustProxy: typeof config.trustProxy === 'number' ? (_address: string, hop: number) => hop < Number(config.trustProxy) : config.trustProxy,
        return503OnClosing: true,
        forceCloseConnections: 'idle' as const,
        clientErrorHandler: clientErrorHandler(base),
      }
      : {}),
    ...(has('request log')
      ? { loggerInstance: base, logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'request_id' }), childLoggerFactory: lazyRequestLogger }
      : { logger: false }),
    ...(has('request id') ? { genReqId: requestIdFor } : {}),
    bodyLimit: NO_BODY.bytes,
  });
  if (config && has('connection limit')) limitConnections(app.server, config.http);
  app.decorateRequest('apiToken', null);
  if (has('request id') && !has('request log')) app.addHook('onRequest', async (request, reply) => void reply.header('x-request-id', request.id));
  if (has('request log')) installRequestLog(app);
  const routes = has('security headers + NUL guard + error body') ? installErrorHandling(app) : null;
  if (has('security headers + NUL guard + error body')) installResponseHeaders(app);
  if (metrics && routes) installRequestMetrics(app, metrics, 'base', routes);
  if (overload && metrics) installLoadShedding(app, overload, metrics);
  if (has('body parsers + input guards')) {
    refuseJsonSentAsForm(app);
    installBodyParsers(app);
    installInputTextGuard(app);
  }
  const ctx = service?.ctx;
  if (ctx && has('limits + metering')) installTokenAuth(app, ctx, 'enterprise', bearerToken);
  else if (ctx) {
    app.addHook('onRequest', async (request) => {
      const header = request.headers.authorization ?? '';
      request.apiToken = await ctx.auth.authenticate(header.slice('Bearer '.length), 'enterprise');
    });
  }
  if (has('multipart plugin')) await app.register(multipart, { limits: { files: 1, fields: 5, parts: 10 } });
  const fixed = { data: { token: { id: 'tok_x', name: 'bench' }, year: '2026', calls_this_year: 1, month: '2026-11', calls_this_month: 1, monthly_quota: null, remaining_this_month: null, rate_limit_per_minute: null } };
  const schema = has('response schema') ? { response: { 200: AnnualUsage } } : {};
  app.get('/v1/usage', { schema }, async (request) => (ctx && has('usage handler') ? usageData(ctx, tokenOf(request)) : fixed));
  return app;
}

async function full(ctx: AppContext): Promise<FastifyInstance> {
  const { buildBaseApp } = await from<typeof import('../src/app.ts')>('src/app.ts');
  return buildBaseApp(ctx, { warmSerializers: true });
}

const app = step === 'full' && service ? await full(service.ctx) : await stepped();
await app.ready();
const address = await app.listen({ host: '127.0.0.1', port: 0 });
// The limits step sends the limited token, so the per-minute check and the quota run; the whole
// app gets the token without limits, as bench/http.ts's figure for the target does.
process.send?.({ address, secret: !service ? 'none' : step !== 'full' && has('limits + metering') ? service.limitedSecret : service.secret });
// `--profile`: a CPU profile of the measured load only (start-up left out), written where the bench says.
const inspector = new Session();
process.on('message', (message: { profile?: 'start' | string }) => {
  void (async () => {
    if (message.profile === 'start') {
      inspector.connect();
      await inspector.post('Profiler.enable');
      await inspector.post('Profiler.start');
    } else if (message.profile) {
      const { profile } = await inspector.post('Profiler.stop');
      writeFileSync(message.profile, JSON.stringify(profile));
      inspector.disconnect();
      process.send?.({ profiled: message.profile });
    }
  })();
});
process.once('SIGTERM', () => {
  void (async () => {
    await app.close();
    if (!service) overload?.close();
    await service?.close();
    process.exit(0);
  })();
});
