import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

export const OVERLOAD_CAUSES = ['event_loop_delay', 'heap_used'] as const;
export type OverloadCause = (typeof OVERLOAD_CAUSES)[number];

export interface OverloadLimits {
  /** Median event-loop delay over the last sample window above which the process is overloaded (ms); 0 = off. */
  maxEventLoopDelayMs: number;
  /** V8 heap in use above which the process is overloaded (bytes); 0 = off. */
  maxHeapUsedBytes: number;
}

/**
 * Tells whether this process is overloaded, sampled every `intervalMs`. The event-loop signal
 * is the MEDIAN delay of the window, not its mean: one long synchronous step (the embedded
 * database opening, a big import batch) makes the mean jump for a whole window although the
 * process is otherwise idle, while a saturated process is late on most turns of its loop.
 */
export class OverloadMonitor {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  private readonly timer: NodeJS.Timeout;
  private state: OverloadCause | null = null;
  private laggedLastWindow = false;

  constructor(
    private readonly limits: OverloadLimits,
    intervalMs = 1000,
    private readonly heapUsed: () => number = () => process.memoryUsage().heapUsed,
  ) {
    this.histogram.enable();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  /** Why the process is overloaded now, or null. */
  cause(): OverloadCause | null {
    return this.state;
  }

  close(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }

  private sample(): void {
    // The histogram is in nanoseconds and includes the sampling resolution itself.
    const medianMs = Math.max(0, this.histogram.percentile(50) / 1e6 - 10);
    this.histogram.reset();
    const { maxEventLoopDelayMs, maxHeapUsedBytes } = this.limits;
    const lagging = maxEventLoopDelayMs > 0 && medianMs > maxEventLoopDelayMs;
    // Two windows in a row: start-up (opening the database, migrations, loading the demo data)
    // keeps the loop busy for most of one window and must not shed the first requests after it.
    const sustained = lagging && this.laggedLastWindow;
    this.laggedLastWindow = lagging;
    if (sustained) this.state = 'event_loop_delay';
    else if (maxHeapUsedBytes > 0 && this.heapUsed() > maxHeapUsedBytes) this.state = 'heap_used';
    else this.state = null;
  }
}
