import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { PDF_JOB } from '../analysis/analyses.ts';
import { PROFILE_SEARCH_JOB } from '../connect/profile-search.ts';
import type { Db } from '../db/client.ts';
import { OVERLOAD_CAUSES } from './overload.ts';
import { answersCounter, LatencyHistogram } from './request-series.ts';

/** Every kind and status is reported, 0 included: a series that vanishes at zero reads as "no data". */
const JOB_KINDS = [PDF_JOB, PROFILE_SEARCH_JOB] as const;
const JOB_STATUSES = ['queued', 'running', 'failed'] as const;

/** Which part of the service a request was for, for the metrics' `group` label. */
export type RequestGroup = 'enterprise' | 'assessment' | 'connect' | 'web' | 'ops';

export interface RequestMetrics {
  readonly requests: Counter<'group' | 'route' | 'method' | 'status'>;
  readonly latency: LatencyHistogram;
}

/**
 * Requests answered and their latency, in `registry`: the same series wherever they are counted.
 * The HTTP edge counts both at once through `latency.seriesOf(…).add` (src/monitoring/request-series.ts).
 */
export function requestMetrics(registry: Registry): RequestMetrics {
  // The counter is made (and registered) first, as before: /metrics lists it first.
  let latency: LatencyHistogram | null = null;
  const requests = answersCounter(
    {
      name: 'rapport_http_requests_total',
      help: 'HTTP requests answered, by group, route template, method and status',
      labelNames: ['group', 'route', 'method', 'status'] as const,
      registers: [registry],
    },
    () => latency?.series.values() ?? [],
  );
  latency = new LatencyHistogram({
    name: 'rapport_http_request_duration_seconds',
    help: 'Time from request to response, by group and route template',
    labelNames: ['group', 'route', 'method'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return { requests, latency };
}

/**
 * The service's Prometheus metrics, one registry per process (built with the context, not a
 * module singleton, so tests and several services in one process do not share counters).
 */
export class Metrics implements RequestMetrics {
  readonly registry = new Registry();
  private readonly counted = requestMetrics(this.registry);
  readonly requests = this.counted.requests;
  readonly latency = this.counted.latency;
  readonly refusals = new Counter({
    name: 'rapport_rate_limit_refusals_total',
    help: 'Calls refused with 429 (per-minute rate limit or monthly quota), by group',
    labelNames: ['group'] as const,
    registers: [this.registry],
  });
  readonly shed = new Counter({
    name: 'rapport_load_shed_total',
    help: 'Requests refused with 503 because the process was overloaded, by cause',
    labelNames: ['cause'] as const,
    registers: [this.registry],
  });
  readonly rateLimiterFailOpen = new Counter({
    name: 'rapport_rate_limiter_fail_open_total',
    help: 'Calls let through without a per-minute check because the shared limiter (Redis) did not answer',
    registers: [this.registry],
  });

  /** Where `text()` reads from: this process's registry, or (serve --processes N) all processes' sum. */
  private source: () => Promise<string> = () => this.registry.metrics();

  constructor(db: Db) {
    // Every refusal series exists from the start at 0, so a dashboard's rate() reads 0 before the
    // first refusal instead of "no data" (a missing series also hides a broken scrape).
    for (const group of ['enterprise', 'assessment', 'connect', 'web'] satisfies RequestGroup[]) this.refusals.inc({ group }, 0);
    for (const cause of OVERLOAD_CAUSES) this.shed.inc({ cause }, 0);
    collectDefaultMetrics({ register: this.registry, prefix: 'rapport_' });
    // Summed over the processes of `serve --processes N`: how many a scrape covers.
    new Gauge({ name: 'rapport_api_processes', help: 'API processes whose metrics this scrape sums', registers: [this.registry] }).set(1);
    // Before the jobs gauge: its collect queries the database, and read after it the pool would
    // count that query as a waiting request on every scrape.
    const pool = db.poolStats;
    if (pool) {
      new Gauge({
        name: 'rapport_db_pool_connections',
        help: 'Database pool connections, by state (total, idle, waiting requests)',
        labelNames: ['state'] as const,
        registers: [this.registry],
        collect() {
          const stats = pool();
          this.set({ state: 'total' }, stats.total);
          this.set({ state: 'idle' }, stats.idle);
          this.set({ state: 'waiting' }, stats.waiting);
        },
      });
    }
    const jobs = new Gauge({
      name: 'rapport_jobs',
      help: 'Background jobs in the queue, by kind and status (queued, running, failed)',
      labelNames: ['kind', 'status'] as const,
      registers: [this.registry],
      // Every process reads the same table: summing over processes would count each job N times.
      aggregator: 'first',
      // Read at scrape time: the jobs table is the truth, whichever process queued or ran them.
      async collect() {
        this.reset();
        for (const kind of JOB_KINDS) for (const status of JOB_STATUSES) this.set({ kind, status }, 0);
        const rows = await db.query<{ kind: string; status: string; n: number | string }>(
          "SELECT kind, status, count(*) AS n FROM jobs WHERE status IN ('queued', 'running', 'failed') GROUP BY kind, status",
        );
        for (const row of rows) this.set({ kind: row.kind, status: row.status }, Number(row.n));
      },
    });
    void jobs;
  }

  async text(): Promise<string> {
    return this.source();
  }

  /** Answers scrapes from elsewhere (the sum over all API processes, src/monitoring/cluster-metrics.ts). */
  useSource(source: () => Promise<string>): void {
    this.source = source;
  }
}
