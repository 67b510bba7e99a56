import { Counter, Histogram, type Aggregator, type CounterConfiguration, type HistogramConfiguration, type LabelValues, type MetricValueWithName } from 'prom-client';

/**
 * The request metrics, counted in plain fields and read at scrape time. prom-client finds a
 * series by joining its label names and values into a string on every `inc` and `observe`, and
 * keeps bucket counts under number-named keys: ~2 µs of every request's CPU for two metrics.
 * Here the HTTP edge asks once per route and method for its series (`RequestSeries.of`) and
 * then only adds to numbers. The names, labels, values and text format are prom-client's own
 * (test/ops/request-series.test.ts compares the two).
 */
type SeriesLabel = 'group' | 'route' | 'method';
type CountLabel = SeriesLabel | 'status';

/** Answers counted by status, and their latency, for one group, route template and method. */
export class SeriesCounts {
  private readonly statuses = new Map<number, { labels: LabelValues<CountLabel>; unread: number }>();
  readonly buckets: number[];
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<SeriesLabel, string>>,
    private readonly bounds: readonly number[],
  ) {
    this.buckets = bounds.map(() => 0);
  }

  /** One answer: its status and seconds taken. */
  add(status: number, seconds: number): void {
    let byStatus = this.statuses.get(status);
    if (!byStatus) {
      byStatus = { labels: { ...this.labels, status: String(status) }, unread: 0 };
      this.statuses.set(status, byStatus);
    }
    byStatus.unread += 1;
    this.observe(seconds);
  }

  observe(seconds: number): void {
    if (!Number.isFinite(seconds)) throw new TypeError(`Value is not a valid number: ${seconds}`);
    this.sum += seconds;
    this.count += 1;
    // Into the first bucket it fits; above the last one, only the count (+Inf) and sum have it.
    const at = this.bounds.findIndex((bound) => seconds <= bound);
    if (at >= 0) this.buckets[at] = (this.buckets[at] ?? 0) + 1;
  }

  /** The answers counted since the last call, by status (for the counter, at scrape). */
  takeUnread(): { labels: LabelValues<CountLabel>; n: number }[] {
    const taken = [];
    for (const byStatus of this.statuses.values()) {
      if (byStatus.unread > 0) taken.push({ labels: byStatus.labels, n: byStatus.unread });
      byStatus.unread = 0;
    }
    return taken;
  }
}

type Value = MetricValueWithName<SeriesLabel | 'le'> & { sharedLabels?: LabelValues<SeriesLabel>; exemplar?: null };

/** What prom-client's metrics hand the registry (MetricObjectWithValues, less its `collect`, which it never sends). */
interface Written<V> {
  name: string;
  help: string;
  type: 'histogram';
  values: V[];
  aggregator: Aggregator;
}

/** rapport_http_request_duration_seconds: prom-client's histogram, its series kept in `SeriesCounts`. */
export class LatencyHistogram extends Histogram<SeriesLabel> {
  readonly series = new Map<string, SeriesCounts>();
  private readonly bounds: readonly number[];
  private readonly described: Omit<Written<Value>, 'values'>;

  constructor(config: HistogramConfiguration<SeriesLabel> & { buckets: number[] }) {
    super(config);
    this.bounds = [...config.buckets];
    this.described = { name: config.name, help: config.help, type: 'histogram', aggregator: config.aggregator ?? 'sum' };
    // prom-client's constructor sets its own `observe` on the instance, which would hide ours.
    this.observe = (labels: Parameters<LatencyHistogram['observeInSeries']>[0], value?: number) => this.observeInSeries(labels, value);
  }

  /** The series of one group, route and method, made on first use. */
  seriesOf(group: string, route: string, method: string): SeriesCounts {
    const key = `${group} ${route} ${method}`;
    let series = this.series.get(key);
    if (!series) {
      series = new SeriesCounts({ group, route, method }, this.bounds);
      this.series.set(key, series);
    }
    return series;
  }

  /** prom-client's `observe`, for those counting without a series at hand (the operations listener). */
  private observeInSeries(labels: LabelValues<SeriesLabel> | number | { labels?: LabelValues<SeriesLabel>; value: number }, value?: number): void {
    if (typeof labels !== 'object' || typeof value !== 'number' || !('group' in labels)) throw new TypeError('request latency is observed with its group, route and method');
    this.seriesOf(String(labels.group), String(labels.route), String(labels.method)).observe(value);
  }

  override reset(): void {
    // prom-client's constructor calls this too, before this class's fields exist.
    (this.series as Map<string, SeriesCounts> | undefined)?.clear();
  }

  /**
   * What prom-client's histogram gives the registry to write: per series, its buckets
   * (cumulative), +Inf, sum and count. Its `get()` (getMetricsAsJSON, the cluster's sum) reads
   * this and puts each series' labels into every value, as for its own series.
   */
  getForPromString(): Promise<Written<Value>> {
    const values: Value[] = [];
    const { name } = this.described;
    const bucket = `${name}_bucket`;
    for (const series of this.series.values()) {
      const sharedLabels = series.labels;
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += series.buckets[i] ?? 0;
        values.push({ labels: { le }, sharedLabels, value: cumulative, metricName: bucket, exemplar: null });
      });
      values.push({ labels: { le: '+Inf' }, sharedLabels, value: series.count, metricName: bucket, exemplar: null });
      values.push({ labels: {}, sharedLabels, value: series.sum, metricName: `${name}_sum` });
      values.push({ labels: {}, sharedLabels, value: series.count, metricName: `${name}_count` });
    }
    return Promise.resolve({ ...this.described, values });
  }
}

/**
 * rapport_http_requests_total: a prom-client counter that, when read, first adds the answers
 * counted in `series` since the last read (one `inc` per series and status).
 */
export function answersCounter(config: CounterConfiguration<CountLabel>, series: () => Iterable<SeriesCounts>): Counter<CountLabel> {
  return new Counter<CountLabel>({
    ...config,
    collect() {
      for (const one of series()) for (const { labels, n } of one.takeUnread()) this.inc(labels, n);
    },
  });
}
