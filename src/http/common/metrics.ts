import type { FastifyInstance } from 'fastify';
import type { Metrics, RequestGroup } from '../../monitoring/metrics.ts';
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

/**
 * Counts every answer by group, route template (bounded: never the raw URL) and status. A 405
 * has no route of its own; it counts under the path's template, so a client calling a real path
 * with the wrong method shows beside that path's other answers, not among unknown URLs.
 */
export function installRequestMetrics(app: FastifyInstance, metrics: Metrics, host: HostName, routes: RouteMethods): void {
  app.addHook('onResponse', (request, reply, done) => {
    const template = reply.statusCode === 405 ? routes.templateFor(requestPath(request.url)) : null;
    const route = request.routeOptions.url ?? template ?? 'unmatched';
    const group = groupOf(host, route);
    const status = String(reply.statusCode);
    metrics.requests.inc({ group, route, method: request.method, status });
    metrics.latency.observe({ group, route, method: request.method }, reply.elapsedTime / 1000);
    if (reply.statusCode === 429) metrics.refusals.inc({ group });
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
