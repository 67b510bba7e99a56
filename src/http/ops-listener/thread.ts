import { parentPort, workerData } from 'node:worker_threads';
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import { healthVerdict, readVitalSigns } from '../../monitoring/vital-signs.ts';
import { AppError } from '../../shared/errors.ts';
import { createLogger } from '../../shared/logger.ts';
import { clientErrorHandler, MAX_HEADER_BYTES } from '../common/client-errors.ts';
import { limitConnections, serverTimeoutOptions } from '../common/connection-limits.ts';
import { frameworkErrors, installErrorHandling } from '../common/errors.ts';
import { metricsTokenRefusal } from '../common/metrics-token.ts';
import { installRequestLog, requestIdFor } from '../common/request-log.ts';
import { COMMON_HEADERS } from '../common/response-headers.ts';
import { requestPath } from '../common/route-methods.ts';
import type { FromOpsThread, OpsThreadData, ToOpsThread } from './messages.ts';

/**
 * The operations listener (RAPPORT_METRICS_PORT) in a thread of its own: `/healthz` and
 * `/metrics`. Its event loop has nothing else to do, so it accepts a connection the moment one
 * arrives; the main thread's loop accepts one new connection per turn (libuv), and a health
 * check there waits behind every connection opened before it. `/healthz` reads the main
 * thread's vital signs from shared memory (src/monitoring/vital-signs.ts); `/metrics` asks the main
 * thread, whose registry holds them. The thread's heap is capped at 64 MB (listener.ts), so it
 * holds one Fastify instance and nothing else the API ports load (no OpenAPI, no parsers).
 */

const port = parentPort;
if (!port) throw new Error('The operations listener runs as a worker thread.');
const data = workerData as OpsThreadData;
const logger = createLogger(data.logLevel, undefined, data.logFormat);
const send = (message: FromOpsThread) => port.postMessage(message);

/** A scrape the main thread did not answer in this time gets 503. */
const SCRAPE_TIMEOUT_MS = 10_000;
let nextScrape = 0;
const scrapes = new Map<number, (answer: { text: string; contentType: string } | { error: string }) => void>();

function scrape(): Promise<{ text: string; contentType: string } | { error: string }> {
  return new Promise((resolve) => {
    const id = nextScrape++;
    const timer = setTimeout(() => settle({ error: 'the service did not gather its metrics in time' }), SCRAPE_TIMEOUT_MS);
    const settle = (answer: { text: string; contentType: string } | { error: string }) => {
      clearTimeout(timer);
      scrapes.delete(id);
      resolve(answer);
    };
    scrapes.set(id, settle);
    send({ type: 'scrape', id });
  });
}

/** What the operations port adds to a 404 (not to a 405 of a path it serves): the two things it serves. */
const SERVED = ['/healthz', '/metrics'];
const servedHere = (_method: string, path: string) => (SERVED.includes(path) ? null : `This listener serves GET ${SERVED.join(' and GET ')}.`);

/**
 * One small Fastify instance (no swagger, no body parsers beyond Fastify's own), with the API
 * ports' error handling (src/http/common/errors.ts): the same error body, request id and 404/405
 * rules. Health checks and scrapes need no Host header, so the API's Host check is left out.
 */
const timeouts = serverTimeoutOptions(data.http);
const app = Fastify({
  loggerInstance: logger as FastifyBaseLogger,
  logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'request_id' }),
  genReqId: requestIdFor,
  bodyLimit: 1024,
  forceCloseConnections: 'idle',
  ...timeouts,
  http: { ...timeouts.http, maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false },
  clientErrorHandler: clientErrorHandler(logger),
  frameworkErrors,
});
limitConnections(app.server, data.http);
app.decorateRequest('apiToken', null);
const routes = installErrorHandling(app, servedHere);
installRequestLog(app);
app.addHook('onRequest', async (_request, reply) => {
  reply.headers(COMMON_HEADERS);
});
app.addHook('onResponse', async (request, reply) => {
  const route = routes.templateFor(requestPath(request.url)) ?? 'unmatched';
  send({ type: 'served', route, method: request.method, status: reply.statusCode, seconds: reply.elapsedTime / 1000 });
});

app.get('/healthz', async (_request, reply) => {
  const problem = healthVerdict(readVitalSigns(data.vitals), data.limits);
  if (problem) throw problem;
  return reply.send({ status: 'ok', database: data.databaseKind });
});

app.get('/metrics', async (request, reply) => {
  const refusal = metricsTokenRefusal(request.headers.authorization, data.metricsToken);
  if (refusal) throw refusal;
  const answer = await scrape();
  if ('error' in answer) throw new AppError('unavailable', `The metrics could not be gathered: ${answer.error}.`);
  return reply.type(answer.contentType).send(answer.text);
});

port.on('message', (message: ToOpsThread) => {
  if (message.type === 'close') {
    void app.close().then(() => process.exit(0));
    return;
  }
  const settle = scrapes.get(message.id);
  if (message.type === 'scraped') settle?.({ text: message.text, contentType: message.contentType });
  else settle?.({ error: message.message });
});

app.listen({ host: data.host, port: data.port }).then(
  () => {
    const address = app.server.address();
    send({ type: 'listening', port: typeof address === 'object' && address !== null ? address.port : data.port });
  },
  (error: Error & { code?: string }) => send({ type: 'listen_failed', message: error.message, code: error.code }),
);
