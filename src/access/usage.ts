import type { Db } from '../db/client.ts';

/** "YYYY-MM" in UTC. Called on every request, so it avoids formatting the whole date. */
export function monthOf(date: Date): string {
  const month = date.getUTCMonth() + 1;
  return `${date.getUTCFullYear()}-${month < 10 ? '0' : ''}${month}`;
}

interface CounterRow extends Record<string, unknown> {
  calls: number;
}

/**
 * Counts calls per token and month. Increments collect in memory and are written in one batch
 * every `flushIntervalMs` and at shutdown, so a request costs no write; a crash loses at most
 * the last interval's counts. After each write the stored total (all processes) is read back.
 */
export class UsageMeter {
  private readonly stored = new Map<string, number>();
  private readonly pastMonths = new Map<string, number>();
  private pending = new Map<string, number>();
  private writing = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly flushIntervalMs = 1000,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush().catch(this.onError), this.flushIntervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  record(tokenId: string, at: Date): void {
    const key = `${tokenId}|${monthOf(at)}`;
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
  }

  /** Calls in the month, as stored plus what this process has not written yet. */
  async monthCalls(tokenId: string, month: string): Promise<number> {
    const key = `${tokenId}|${month}`;
    if (!this.stored.has(key)) {
      const rows = await this.db.query<CounterRow>('SELECT calls FROM usage_counters WHERE token_id = $1 AND month = $2', [tokenId, month]);
      // A flush that ended while this read was under way knows a newer total: keep that one.
      if (!this.stored.has(key)) this.stored.set(key, rows[0]?.calls ?? 0);
    }
    return (this.stored.get(key) ?? 0) + (this.writing.get(key) ?? 0) + (this.pending.get(key) ?? 0);
  }

  /**
   * Calls in `year` up to and including `month`. Past months are closed, so their stored sum
   * is read once per token and process; the current month comes from monthCalls. Right after
   * a month ends this process may still hold unwritten calls of the past month: they are
   * added, and the sum is not kept until they are written.
   */
  async yearCalls(tokenId: string, month: string): Promise<number> {
    const key = `${tokenId}|${month}`;
    let past = this.pastMonths.get(key);
    if (past === undefined) {
      const rows = await this.db.query<CounterRow>(
        "SELECT COALESCE(SUM(calls), 0)::bigint AS calls FROM usage_counters WHERE token_id = $1 AND month LIKE $2 || '-%' AND month < $3",
        [tokenId, month.slice(0, 4), month],
      );
      const unwritten = this.unwrittenBefore(tokenId, month);
      past = (rows[0]?.calls ?? 0) + unwritten;
      if (unwritten === 0) {
        if (this.pastMonths.size > 10_000) this.pastMonths.clear();
        this.pastMonths.set(key, past);
      }
    }
    return past + (await this.monthCalls(tokenId, month));
  }

  /** This process's calls of `tokenId` in the months of `month`'s year before it, not yet stored. */
  private unwrittenBefore(tokenId: string, month: string): number {
    let calls = 0;
    for (const counts of [this.pending, this.writing]) {
      for (const [key, n] of counts) {
        const [id, at] = key.split('|');
        if (id === tokenId && at !== undefined && at < month && at.slice(0, 4) === month.slice(0, 4)) calls += n;
      }
    }
    return calls;
  }

  flush(): Promise<void> {
    // Chain flushes so two never write the same increments. A failed flush must not stop the
    // chain: its counts went back to pending and the next flush writes them.
    this.flushing = this.flushing.catch(() => undefined).then(() => this.writePending());
    return this.flushing;
  }

  private async writePending(): Promise<void> {
    if (this.pending.size === 0) return;
    // Counts being written stay visible to monthCalls until the stored totals replace them.
    this.writing = this.pending;
    this.pending = new Map();
    try {
      const totals = await this.db.transaction(async (tx) => {
        const written = new Map<string, number>();
        for (const [key, calls] of this.writing) {
          const [tokenId, month] = key.split('|');
          const rows = await tx.query<CounterRow>(
            `INSERT INTO usage_counters (token_id, month, calls) VALUES ($1, $2, $3)
             ON CONFLICT (token_id, month) DO UPDATE SET calls = usage_counters.calls + EXCLUDED.calls
             RETURNING calls`,
            [tokenId, month, calls],
          );
          written.set(key, rows[0]?.calls ?? calls);
        }
        return written;
      });
      for (const [key, total] of totals) this.stored.set(key, total);
    } catch (error) {
      // Keep the counts for the next attempt rather than lose them.
      for (const [key, calls] of this.writing) this.pending.set(key, (this.pending.get(key) ?? 0) + calls);
      throw error;
    } finally {
      this.writing = new Map();
    }
  }
}
