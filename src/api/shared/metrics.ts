import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Metrics, RequestGroup } from '../../ops/metrics.ts';
import { AppError } from '../../shared/errors.ts';

export type HostName = 'base' | 'connect';

const OPS_PATHS = new Set(['/healthz', '/metrics', '/openapi.json', '/']);

function groupOf(host: HostName, route: string): RequestGroup {
  if (OPS_PATHS.has(route) || route.startsWith('/docs')) return 'ops';
  if (host === 'connect') return 'connect';
  if (route.startsWith('/v1/personality_assessments')) return 'assessment';
  if (route.startsWith('/v1/')) return 'enterprise';
  return 'web';
}

/** Counts every answer by group, route template (bounded: never the raw URL) and status. */
export function installRequestMetrics(app: FastifyInstance, metrics: Metrics, host: HostName): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const group = groupOf(host, route);
    const status = String(reply.statusCode);
    metrics.requests.inc({ group, route, method: request.method, status });
    metrics.latency.observe({ group, route, method: request.method }, reply.elapsedTime / 1000);
    if (reply.statusCode === 429) metrics.refusals.inc({ group });
  });
}

function tokenMatches(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function checkToken(request: FastifyRequest, token: string | null): void {
  if (token === null) return;
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  if (!match?.[1] || !tokenMatches(match[1], token)) {
    throw new AppError('unauthorized', 'The metrics token is missing or not valid: send "Authorization: Bearer <RAPPORT_METRICS_TOKEN>".');
  }
}

/** `GET /metrics` in Prometheus' text format, behind RAPPORT_METRICS_TOKEN when one is set. */
export function metricsRoute(metrics: Metrics, token: string | null) {
  return async (app: FastifyInstance): Promise<void> => {
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      checkToken(request, token);
      reply.type(metrics.registry.contentType);
      return metrics.text();
    });
  };
}
