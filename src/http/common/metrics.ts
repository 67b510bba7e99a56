import type { FastifyInstance, onResponseHookHandler } from 'fastify';
import type { Metrics, RequestGroup } from '../../monitoring/metrics.ts';
import type { SeriesCounts } from '../../monitoring/request-series.ts';
import { metricsTokenRefusal } from './metrics-token.ts';
import { requestPath, type RouteMethods } from './route-methods.ts';

export type HostName = 'base' | 'connect';

const OPS_PATHS = new Set(['/healthz', '/metrics', '/openapi.json', '/']);

function groupOf(host: HostName, route: string): RequestGroup {
  if (OPS_PATHS.has(route) || route.startsWith('/docs')) return 'ops';
  if (host === 'connect') return 'connect';
  if (route.startsWith('/v1/personality_assessments')) return 'assessment';
  if (route.startsWith('/v1/')) return 'enterprise';
  return 'web';
}

/** One answer in its series, and a 429 among the group's refusals. */
function countAnswer(series: SeriesCounts, statusCode: number, seconds: number, metrics: Metrics, group: RequestGroup): void {
  series.add(statusCode, seconds);
  if (statusCode === 429) metrics.refusals.inc({ group });
}

/**
 * Counts every answer by group, route template (bounded: never the raw URL) and status. Each
 * route gets its own hook as it is added, which finds its series once per method and then only
 * adds to numbers (no label lookup a request). A request no route took (404, 405) is counted by
 * the app's hook. A 405 has no route of its own; it counts under the path's template, so a client
 * calling a real path with the wrong method shows beside that path's other answers, not among
 * unknown URLs.
 */
export function installRequestMetrics(app: FastifyInstance, metrics: Metrics, host: HostName, routes: RouteMethods): void {
  app.addHook('onRoute', (route) => {
    const group = groupOf(host, route.url);
    const byMethod = new Map<string, SeriesCounts>();
    const counted: onResponseHookHandler = (request, reply, done) => {
      let series = byMethod.get(request.method);
      if (!series) {
        series = metrics.latency.seriesOf(group, route.url, request.method);
        byMethod.set(request.method, series);
      }
      countAnswer(series, reply.statusCode, reply.elapsedTime / 1000, metrics, group);
      done();
    };
    const own = route.onResponse;
    route.onResponse = own === undefined ? [counted] : Array.isArray(own) ? [...own, counted] : [own, counted];
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (!request.is404) return done();
    const route = (reply.statusCode === 405 ? routes.templateFor(requestPath(request.url)) : null) ?? 'unmatched';
    const group = groupOf(host, route);
    countAnswer(metrics.latency.seriesOf(group, route, request.method), reply.statusCode, reply.elapsedTime / 1000, metrics, group);
    done();
  });
}

/** `GET /metrics` in Prometheus' text format, behind RAPPORT_METRICS_TOKEN when one is set. */
export function metricsRoute(metrics: Metrics, token: string | null) {
  return async (app: FastifyInstance): Promise<void> => {
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      const refusal = metricsTokenRefusal(request.headers.authorization, token);
      if (refusal) throw refusal;
      reply.type(metrics.registry.contentType);
      return metrics.text();
    });
  };
}
