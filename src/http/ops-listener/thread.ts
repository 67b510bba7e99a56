import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import { healthVerdict, readVitalSigns } from '../../monitoring/vital-signs.ts';
import { AppError } from '../../shared/errors.ts';
import { createLogger, redactUrl } from '../../shared/logger.ts';
import { clientErrorHandler, MAX_HEADER_BYTES } from '../common/client-errors.ts';
import { limitConnections } from '../common/connection-limits.ts';
import { metricsTokenRefusal } from '../common/metrics-token.ts';
import { requestIdFor } from '../common/request-log.ts';
import { COMMON_HEADERS } from '../common/response-headers.ts';
import { requestPath } from '../common/route-methods.ts';
import { STATUS_BY_CODE } from '../common/status-codes.ts';
import type { FromOpsThread, OpsThreadData, ToOpsThread } from './messages.ts';

/**
 * The operations listener (RAPPORT_METRICS_PORT) in a thread of its own: `/healthz` and
 * `/metrics`. Its event loop has nothing else to do, so it accepts a connection the moment one
 * arrives; the main thread's loop accepts one new connection per turn (libuv), and a health
 * check there waits behind every connection opened before it. `/healthz` reads the main
 * thread's vital signs from shared memory (src/monitoring/vital-signs.ts); `/metrics` asks the main
 * thread, whose registry holds them.
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

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

/** The service's one error body, as src/http/common/errors.ts sends it on the API ports. */
function sendError(response: ServerResponse, requestId: string, error: AppError): void {
  if (error.retryAfterSeconds !== undefined) response.setHeader('retry-after', String(error.retryAfterSeconds));
  sendJson(response, STATUS_BY_CODE[error.code], { error: { code: error.code, message: error.message, request_id: requestId } });
}

async function answerHealth(response: ServerResponse, requestId: string): Promise<void> {
  const problem = healthVerdict(readVitalSigns(data.vitals), data.limits);
  if (problem) sendError(response, requestId, problem);
  else sendJson(response, 200, { status: 'ok', database: data.databaseKind });
}

async function answerMetrics(response: ServerResponse, requestId: string, authorization: string | undefined): Promise<void> {
  const refusal = metricsTokenRefusal(authorization, data.metricsToken);
  if (refusal) return sendError(response, requestId, refusal);
  const answer = await scrape();
  if ('error' in answer) {
    sendError(response, requestId, new AppError('unavailable', `The metrics could not be gathered: ${answer.error}.`));
  } else {
    response.writeHead(200, { 'content-type': answer.contentType, 'content-length': Buffer.byteLength(answer.text) });
    response.end(answer.text);
  }
}

/**
 * The paths this listener serves, each with GET and HEAD (Node leaves the body out of a HEAD
 * response itself); the one table both the answers and the 405's `Allow` come from.
 */
const ROUTES = new Map<string, (response: ServerResponse, requestId: string, request: IncomingMessage) => Promise<void>>([
  ['/healthz', (response, requestId) => answerHealth(response, requestId)],
  ['/metrics', (response, requestId, request) => answerMetrics(response, requestId, request.headers.authorization)],
]);
const METHODS = ['GET', 'HEAD'];

async function handle(request: IncomingMessage, response: ServerResponse, requestId: string): Promise<string> {
  const path = requestPath(request.url ?? '/');
  const method = request.method ?? 'GET';
  const route = ROUTES.get(path);
  if (route && METHODS.includes(method)) {
    await route(response, requestId, request);
    return path;
  }
  // The API ports' rule: a path served under another method is a 405 naming the ones it takes.
  if (route) {
    response.setHeader('allow', METHODS.join(', '));
    sendError(response, requestId, new AppError('method_not_allowed', `${path} takes GET, not ${method}.`));
    return path;
  }
  const message = `No route ${method} ${redactUrl(request.url ?? '/')} here: this listener serves GET ${[...ROUTES.keys()].join(' and GET ')}.`;
  sendError(response, requestId, new AppError('not_found', message));
  return 'unmatched';
}

const server = createServer(
  {
    maxHeaderSize: MAX_HEADER_BYTES,
    requestTimeout: data.http.requestTimeoutMs,
    headersTimeout: data.http.headersTimeoutMs,
    keepAliveTimeout: data.http.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, data.http.headersTimeoutMs),
    // Health checks and scrapes need no Host; Node's own refusal would be a bare 400.
    requireHostHeader: false,
  },
  (request, response) => {
    const started = performance.now();
    const requestId = requestIdFor(request);
    response.setHeader('x-request-id', requestId);
    for (const [name, value] of Object.entries(COMMON_HEADERS)) response.setHeader(name, value);
    handle(request, response, requestId).then(
      (route) => {
        const ms = performance.now() - started;
        logger.info({ request_id: requestId, method: request.method, url: redactUrl(request.url ?? '/'), status: response.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
        send({ type: 'served', route, method: request.method ?? 'GET', status: response.statusCode, seconds: ms / 1000 });
      },
      (error: unknown) => {
        logger.error({ request_id: requestId, err: error }, 'operations listener failed');
        if (!response.headersSent) sendError(response, requestId, new AppError('internal', 'Unexpected error.'));
        else response.destroy();
      },
    );
  },
);
server.setTimeout(data.http.idleTimeoutMs);
if (data.http.maxRequestsPerConnection > 0) server.maxRequestsPerSocket = data.http.maxRequestsPerConnection;
limitConnections(server, data.http);
server.on('clientError', clientErrorHandler(logger));

port.on('message', (message: ToOpsThread) => {
  if (message.type === 'close') {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    return;
  }
  const settle = scrapes.get(message.id);
  if (message.type === 'scraped') settle?.({ text: message.text, contentType: message.contentType });
  else settle?.({ error: message.message });
});

server.once('error', (error: Error & { code?: string }) => send({ type: 'listen_failed', message: error.message, code: error.code }));
server.listen({ host: data.host, port: data.port }, () => {
  const address = server.address();
  send({ type: 'listening', port: typeof address === 'object' && address !== null ? address.port : data.port });
});
