import type { Db } from '../db/client.ts';
import type { Logger } from '../shared/logger.ts';
import { claimJob, completeJob, failJob, type Job } from './queue.ts';

export type JobHandler = (job: Job) => Promise<void>;
/** Called when a job has failed MAX_ATTEMPTS times, so its owner can record the outcome. */
export type GiveUpHandler = (job: Job, error: string) => Promise<void>;

export interface JobWorkerOptions {
  pollIntervalMs?: number;
  leaseSeconds?: number;
  concurrency?: number;
}

/**
 * Runs jobs from the queue: polls, and wakes at once when this process enqueues something.
 * Several workers (in the API process or in `rapport worker` processes) can share one queue.
 */
export class JobWorker {
  private readonly handlers = new Map<string, { run: JobHandler; giveUp?: GiveUpHandler }>();
  private running = 0;
  private stopped = true;
  private timer: NodeJS.Timeout | null = null;
  private idle: Array<() => void> = [];
  private readonly pollIntervalMs: number;
  private readonly leaseSeconds: number;
  private readonly concurrency: number;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    options: JobWorkerOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.leaseSeconds = options.leaseSeconds ?? 120;
    this.concurrency = options.concurrency ?? 2;
  }

  register(kind: string, run: JobHandler, giveUp?: GiveUpHandler): void {
    this.handlers.set(kind, giveUp ? { run, giveUp } : { run });
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.pollIntervalMs);
    this.timer.unref();
    this.wake();
  }

  /** Look for work now (called after an enqueue in this process). */
  wake(): void {
    if (this.stopped || this.running >= this.concurrency) return;
    this.running += 1;
    void this.runOne().then((found) => {
      this.running -= 1;
      if (this.running === 0) for (const resolve of this.idle.splice(0)) resolve();
      // There may be more: keep going until the queue is empty.
      if (found) this.wake();
    });
  }

  /** Stops claiming and waits for the jobs in hand to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.running > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  /** Claims and runs one job; false when there was none. Never rejects. */
  private async runOne(): Promise<boolean> {
    let job: Job | null;
    try {
      job = await claimJob(this.db, [...this.handlers.keys()], this.leaseSeconds);
    } catch (error) {
      if (!this.stopped) this.logger.error({ err: error }, 'could not claim a job');
      return false;
    }
    if (!job) return false;
    const handler = this.handlers.get(job.kind);
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await handler.run(job);
      await completeJob(this.db, job.id);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.warn({ job_id: job.id, kind: job.kind, attempt: job.attempts, err: error }, 'job failed');
      const outcome = await failJob(this.db, job, message).catch(() => 'retry' as const);
      if (outcome === 'failed' && handler?.giveUp) await handler.giveUp(job, message).catch(() => undefined);
    }
    return true;
  }
}
