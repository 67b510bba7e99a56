import type { Db } from '../db/client.ts';
import type { Logger } from '../shared/logger.ts';
import { claimJobs, completeJobs } from './batch.ts';
import { claimJob, failJob, type Job } from './queue.ts';

export type JobHandler = (job: Job) => Promise<void>;
/** Runs a batch; returns the error of each job that failed (the others are done). */
export type BatchHandler = (jobs: readonly Job[]) => Promise<Map<string, string>>;
/** Called when a job has failed MAX_ATTEMPTS times, so its owner can record the outcome. */
export type GiveUpHandler = (job: Job, error: string) => Promise<void>;

export interface JobWorkerOptions {
  pollIntervalMs?: number;
  leaseSeconds?: number;
  /** Single jobs (register) run at once by this process. */
  concurrency?: number;
}

export interface BatchOptions {
  /** Jobs claimed, run and completed together (default 100). */
  batchSize?: number;
  /** Batches of this kind in hand at once (default 1): more where a batch waits on others (webhook receivers). */
  concurrency?: number;
  /** The lease of this kind's claims, when it differs from the worker's (a bound on how long a batch can take). */
  leaseSeconds?: number;
}

/**
 * One way of taking work from the queue, with its own slots: single jobs (a PDF each, several
 * slots) or batches of one kind (Connect searches, one batch at a time). Both claim fairly
 * between owners; everything after the claim (complete, retry, give up) is the worker's.
 */
interface Lane {
  readonly concurrency: number;
  /** This lane's lease, where it has its own. */
  readonly leaseSeconds?: number;
  claim(leaseSeconds: number): Promise<Job[]>;
  run(jobs: readonly Job[]): Promise<Map<string, string>>;
  giveUp(job: Job, error: string): Promise<void>;
  /** Whether a failure's message may be logged: batch errors can quote a caller's search. */
  readonly logErrors: boolean;
  running: number;
  /** A wake came while every slot was busy: look again when one frees, even if it found nothing. */
  again: boolean;
}

/** How much after a job's time wakeAt looks for it. */
const DUE_MARGIN_MS = 5;

/**
 * Runs jobs from the queue: polls, and wakes at once when this process enqueues something.
 * Several workers (in the API process or in `rapport worker` processes) share one queue:
 * claims are FOR UPDATE SKIP LOCKED with a lease, so a job is never run twice at once and a
 * dead worker's jobs are taken again when their lease ends.
 */
export class JobWorker {
  private readonly handlers = new Map<string, { run: JobHandler; giveUp?: GiveUpHandler }>();
  private readonly lanes: Lane[] = [];
  private single: Lane | null = null;
  private stopped = true;
  private timer: NodeJS.Timeout | null = null;
  /** The wake asked for by wakeAt, and when it fires (only the earliest is kept). */
  private dueTimer: { at: number; timer: NodeJS.Timeout } | null = null;
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

  /** Jobs of `kind` are claimed one at a time (claimJob), in up to `concurrency` slots. */
  register(kind: string, run: JobHandler, giveUp?: GiveUpHandler): void {
    this.handlers.set(kind, giveUp ? { run, giveUp } : { run });
    if (!this.single) {
      this.single = this.singleLane();
      this.lanes.push(this.single);
    }
  }

  /** Jobs of `kind` are claimed a batch at a time (claimJobs), one batch in hand at a time. */
  registerBatch(kind: string, run: BatchHandler, giveUp: GiveUpHandler, options: BatchOptions = {}): void {
    const batchSize = options.batchSize ?? 100;
    const db = this.db;
    this.lanes.push({
      concurrency: options.concurrency ?? 1,
      ...(options.leaseSeconds !== undefined ? { leaseSeconds: options.leaseSeconds } : {}),
      claim: (leaseSeconds) => claimJobs(db, kind, batchSize, leaseSeconds),
      run,
      giveUp,
      logErrors: false,
      running: 0,
      again: false,
    });
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
    if (this.stopped) return;
    for (const lane of this.lanes) this.fill(lane);
  }

  /**
   * Look for work at `when` (a job this process queued to run then, a webhook retry say): it
   * runs at its time rather than at the first poll after it, up to pollIntervalMs later. A time
   * a poll reaches first needs no timer; only the earliest asked-for time is kept, and each
   * wake ends with a claim, which finds every job due by then.
   */
  wakeAt(when: Date): void {
    const delay = when.getTime() - Date.now();
    if (this.stopped || delay >= this.pollIntervalMs) return;
    if (delay <= 0) return void setImmediate(() => this.wake());
    if (this.dueTimer && this.dueTimer.at <= when.getTime()) return;
    if (this.dueTimer) clearTimeout(this.dueTimer.timer);
    // A few ms late: the claim compares the job's time with the database's clock.
    const timer = setTimeout(() => {
      this.dueTimer = null;
      this.wake();
    }, delay + DUE_MARGIN_MS);
    timer.unref();
    this.dueTimer = { at: when.getTime(), timer };
  }

  /** Stops claiming and waits for the jobs in hand to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.dueTimer) clearTimeout(this.dueTimer.timer);
    this.dueTimer = null;
    if (this.lanes.some((lane) => lane.running > 0)) await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  private singleLane(): Lane {
    const handlers = this.handlers;
    const db = this.db;
    return {
      concurrency: this.concurrency,
      claim: async (leaseSeconds) => {
        const job = await claimJob(db, [...handlers.keys()], leaseSeconds);
        return job ? [job] : [];
      },
      run: async (jobs) => {
        const failures = new Map<string, string>();
        for (const job of jobs) {
          try {
            const handler = handlers.get(job.kind);
            if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
            await handler.run(job);
          } catch (error) {
            failures.set(job.id, error instanceof Error ? error.message : String(error));
          }
        }
        return failures;
      },
      giveUp: async (job, error) => {
        await handlers.get(job.kind)?.giveUp?.(job, error);
      },
      logErrors: true,
      running: 0,
      again: false,
    };
  }

  /** Starts one more slot on the lane if it has a free one; a slot keeps going while it finds work. */
  private fill(lane: Lane): void {
    if (lane.running >= lane.concurrency) {
      lane.again = true;
      return;
    }
    lane.running += 1;
    void this.runOnce(lane).then((found) => {
      lane.running -= 1;
      if (this.lanes.every((l) => l.running === 0)) for (const resolve of this.idle.splice(0)) resolve();
      if (this.stopped || !(found || lane.again)) return;
      lane.again = false;
      // On the next turn of the event loop: the embedded database answers without ever leaving
      // the microtask queue, so a slot draining a backlog would otherwise starve timers and I/O
      // (the HTTP server of the same process) until the backlog is gone.
      setImmediate(() => {
        if (!this.stopped) this.fill(lane);
      });
    });
  }

  /** Claims and runs what the lane hands out; false when there was nothing. Never rejects. */
  private async runOnce(lane: Lane): Promise<boolean> {
    let jobs: Job[];
    try {
      jobs = await lane.claim(lane.leaseSeconds ?? this.leaseSeconds);
    } catch (error) {
      if (!this.stopped) this.logger.error({ err: error }, 'could not claim jobs');
      return false;
    }
    if (jobs.length === 0) return false;
    const started = performance.now();
    let failures: Map<string, string>;
    try {
      failures = await lane.run(jobs);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      failures = new Map(jobs.map((job) => [job.id, message]));
    }
    try {
      await completeJobs(this.db, jobs.filter((job) => !failures.has(job.id)).map((job) => job.id));
    } catch (error) {
      // The jobs stay running until their lease ends, then run again; their results are kept.
      this.logger.error({ err: error }, 'could not mark jobs done');
    }
    // One line per claim, as the API logs one per request: what ran, how long, how many failed
    // (never a payload: it can hold a caller's search or a person's text).
    const [first] = jobs;
    this.logger.info(
      { kind: first?.kind, ...(jobs.length === 1 ? { job_id: first?.id, attempt: first?.attempts } : {}), jobs: jobs.length, failed: failures.size, ms: Math.round(performance.now() - started) },
      'jobs run',
    );
    for (const job of jobs) {
      const message = failures.get(job.id);
      if (message === undefined) continue;
      const fields = { job_id: job.id, kind: job.kind, attempt: job.attempts };
      this.logger.warn(lane.logErrors ? { ...fields, error: message } : fields, 'job failed');
      const outcome = await failJob(this.db, job, message).catch(() => 'retry' as const);
      if (outcome === 'failed') await lane.giveUp(job, message).catch(() => undefined);
    }
    return true;
  }
}
