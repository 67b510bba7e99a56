import type { Db } from '../db/client.ts';
import type { Logger } from '../shared/logger.ts';
import { claimJobs, completeJobs } from './batch.ts';
import { failJob, type Job } from './queue.ts';

/** Runs a batch; returns the error of each job that failed (the others are done). */
export type BatchHandler = (jobs: readonly Job[]) => Promise<Map<string, string>>;
/** Called when a job has failed MAX_ATTEMPTS times, so its owner can record the outcome. */
export type BatchGiveUp = (job: Job, error: string) => Promise<void>;

export interface BatchWorkerOptions {
  batchSize?: number;
  pollIntervalMs?: number;
  leaseSeconds?: number;
}

/**
 * A worker for one kind of small job, taken from the shared `jobs` queue a batch at a time: claim
 * up to `batchSize`, run them, complete the batch in one statement. One batch at a time per
 * process; several processes (`rapport worker`) share the queue through SKIP LOCKED.
 */
export class BatchJobWorker {
  private stopped = true;
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private readonly batchSize: number;
  private readonly pollIntervalMs: number;
  private readonly leaseSeconds: number;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly kind: string,
    private readonly handler: BatchHandler,
    private readonly giveUp: BatchGiveUp,
    options: BatchWorkerOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 100;
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.leaseSeconds = options.leaseSeconds ?? 120;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.pollIntervalMs);
    this.timer.unref();
    this.wake();
  }

  /** Look for work now; if a batch is running, look again as soon as it ends. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = null;
      if (this.again && !this.stopped) {
        this.again = false;
        this.wake();
      }
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Batches until the queue is empty (or the worker stops). Never rejects. */
  private async drain(): Promise<void> {
    while (!this.stopped && (await this.runBatch()) > 0);
  }

  private async runBatch(): Promise<number> {
    let jobs: Job[];
    try {
      jobs = await claimJobs(this.db, [this.kind], this.batchSize, this.leaseSeconds);
    } catch (error) {
      if (!this.stopped) this.logger.error({ err: error }, 'could not claim jobs');
      return 0;
    }
    if (jobs.length === 0) return 0;
    let failures: Map<string, string>;
    try {
      failures = await this.handler(jobs);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      failures = new Map(jobs.map((job) => [job.id, message]));
    }
    try {
      await completeJobs(this.db, jobs.filter((job) => !failures.has(job.id)).map((job) => job.id));
    } catch (error) {
      // The jobs stay running until their lease ends, then run again; their results are kept.
      this.logger.error({ err: error, kind: this.kind }, 'could not mark jobs done');
    }
    for (const job of jobs) {
      const message = failures.get(job.id);
      if (message === undefined) continue;
      this.logger.warn({ job_id: job.id, kind: job.kind, attempt: job.attempts }, 'job failed');
      const outcome = await failJob(this.db, job, message).catch(() => 'retry' as const);
      if (outcome === 'failed') await this.giveUp(job, message).catch(() => undefined);
    }
    return jobs.length;
  }
}
