import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { requestMetrics } from '../../src/monitoring/metrics.ts';
import { seededRandom } from '../../training/random.ts';

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The two request metrics as prom-client's own classes make them, before they were counted in plain fields. */
function plainRequestMetrics(registry: Registry) {
  return {
    requests: new Counter({
      name: 'rapport_http_requests_total',
      help: 'HTTP requests answered, by group, route template, method and status',
      labelNames: ['group', 'route', 'method', 'status'] as const,
      registers: [registry],
    }),
    latency: new Histogram({
      name: 'rapport_http_request_duration_seconds',
      help: 'Time from request to response, by group and route template',
      labelNames: ['group', 'route', 'method'] as const,
      buckets: BUCKETS,
      registers: [registry],
    }),
  };
}

const sortedLines = (text: string) => text.split('\n').sort();
const sortedJson = (metrics: { name: string; values: unknown[] }[]) =>
  metrics.map((metric) => ({ ...metric, values: metric.values.map((value) => JSON.stringify(value)).sort() }));

describe('request metrics counted in plain fields', () => {
  it('scrape to the same text and JSON as prom-client counting each request, scrape after scrape, with direct inc/observe calls mixed in', async () => {
    const ours = new Registry();
    const plain = new Registry();
    const counted = requestMetrics(ours);
    const reference = plainRequestMetrics(plain);
    const next = seededRandom(7);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
    const routes = [
      ['enterprise', '/v1/usage'],
      ['enterprise', '/v1/analysis/text'],
      ['ops', '/healthz'],
      ['web', 'unmatched'],
    ] as const;
    for (let scrape = 0; scrape < 3; scrape += 1) {
      for (let i = 0; i < 500; i += 1) {
        const [group, route] = pick(routes);
        const method = pick(['GET', 'HEAD', 'POST']);
        const status = pick([200, 200, 200, 404, 429, 503]);
        // Every bucket's edge, values between, and above the last bucket.
        const seconds = next() < 0.2 ? pick(BUCKETS) : next() * 12;
        if (next() < 0.1) {
          // The operations listener's way: prom-client's own calls on the same metrics.
          counted.requests.inc({ group, route, method, status: String(status) });
          counted.latency.observe({ group, route, method }, seconds);
        } else counted.latency.seriesOf(group, route, method).add(status, seconds);
        reference.requests.inc({ group, route, method, status: String(status) });
        reference.latency.observe({ group, route, method }, seconds);
      }
      // Series may come in another order (the counter's by route first); their lines are the same.
      expect(sortedLines(await ours.metrics())).toEqual(sortedLines(await plain.metrics()));
      expect(sortedJson(await ours.getMetricsAsJSON())).toEqual(sortedJson(await plain.getMetricsAsJSON()));
    }
    const text = await ours.metrics();
    expect(text).toContain('rapport_http_request_duration_seconds_bucket{le="0.001",group="enterprise",route="/v1/usage",method="GET"}');
    expect(text.indexOf('# HELP rapport_http_requests_total')).toBeLessThan(text.indexOf('# HELP rapport_http_request_duration_seconds'));
  });

  it('a reset empties both', async () => {
    const ours = new Registry();
    const counted = requestMetrics(ours);
    counted.latency.seriesOf('enterprise', '/v1/usage', 'GET').add(200, 0.002);
    ours.resetMetrics();
    expect(await ours.metrics()).not.toContain('route="/v1/usage"');
  });
});
