import type { Queryable } from '../db/client.ts';
import { newId } from '../shared/ids.ts';

/**
 * Durable background work in the `jobs` table. A job is claimed with FOR UPDATE SKIP LOCKED and
 * a lease: if the process dies, the lease runs out and another worker (or the restarted one)
 * takes the job again.
 */
export interface Job {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
}

export const MAX_ATTEMPTS = 3;

/**
 * Queues a job. `owner` is the token the work is for: jobs are handed out fairly between owners
 * (see claimJob). Work for nobody in particular shares the owner ''.
 */
export async function enqueueJob(db: Queryable, kind: string, payload: Record<string, unknown>, owner = ''): Promise<string> {
  const id = newId('job');
  await db.query('INSERT INTO jobs (id, kind, payload, owner) VALUES ($1, $2, $3, $4)', [id, kind, JSON.stringify(payload), owner]);
  return id;
}

export interface NewJob {
  kind: string;
  payload: Record<string, unknown>;
  owner: string;
  /** Not to be claimed before this time (a retry's back-off); now when absent. */
  runAfter?: Date;
}

/** Queues many jobs in one statement (a fan-out, a batch's retries). Returns their ids, in order. */
export async function enqueueJobs(db: Queryable, jobs: readonly NewJob[]): Promise<string[]> {
  if (jobs.length === 0) return [];
  const rows = jobs.map((job) => ({ id: newId('job'), kind: job.kind, payload: job.payload, owner: job.owner, run_after: (job.runAfter ?? null)?.toISOString() ?? null }));
  await db.query(
    `INSERT INTO jobs (id, kind, payload, owner, run_after)
     SELECT r.id, r.kind, r.payload, r.owner, coalesce(r.run_after, now())
     FROM jsonb_to_recordset($1::jsonb) AS r(id text, kind text, payload jsonb, owner text, run_after timestamptz)`,
    [JSON.stringify(rows)],
  );
  return rows.map((row) => row.id);
}

/**
 * Claims the next job, fairly between owners: the owner with the fewest jobs running goes
 * first, then the one whose last job was claimed longest ago (a round-robin turn, kept in
 * job_owners), then the oldest job. So a token with a backlog of slow PDFs gets its turn, and a
 * token with one small PDF is served at the next free slot instead of after the backlog.
 *
 * Still one statement with FOR UPDATE SKIP LOCKED on the job row, so several worker processes
 * never take the same job; the counts they order by are a snapshot, which is all fairness needs.
 */
export async function claimJob(db: Queryable, kinds: readonly string[], leaseSeconds: number): Promise<Job | null> {
  const rows = await db.query<{ id: string; kind: string; payload: unknown; attempts: number }>(
    `WITH active AS (
       SELECT owner, count(*) FILTER (WHERE status = 'running' AND lease_until >= now()) AS running
       FROM jobs
       WHERE kind = ANY($1::text[]) AND status IN ('queued', 'running')
       GROUP BY owner
     ),
     next AS (
       SELECT j.id FROM jobs j
       JOIN active a ON a.owner = j.owner
       LEFT JOIN job_owners o ON o.owner = j.owner
       WHERE j.kind = ANY($1::text[])
         AND ((j.status = 'queued' AND j.run_after <= now()) OR (j.status = 'running' AND j.lease_until < now()))
       ORDER BY a.running, o.last_claimed_at NULLS FIRST, j.run_after, j.created_at
       LIMIT 1
       FOR UPDATE OF j SKIP LOCKED
     ),
     claimed AS (
       UPDATE jobs SET status = 'running', attempts = attempts + 1, updated_at = now(),
              lease_until = now() + make_interval(secs => $2::double precision)
       WHERE id = (SELECT id FROM next)
       RETURNING id, kind, payload, attempts, owner
     ),
     turn AS (
       INSERT INTO job_owners (owner, last_claimed_at)
       SELECT owner, clock_timestamp() FROM claimed
       ON CONFLICT (owner) DO UPDATE SET last_claimed_at = excluded.last_claimed_at
     )
     SELECT id, kind, payload, attempts FROM claimed`,
    [[...kinds], leaseSeconds],
  );
  const row = rows[0];
  if (!row) return null;
  const payload = typeof row.payload === 'string' ? (JSON.parse(row.payload) as unknown) : row.payload;
  return { id: row.id, kind: row.kind, attempts: row.attempts, payload: (payload ?? {}) as Record<string, unknown> };
}

/**
 * Makes the queued jobs of these owners that wait for a later time due now (a webhook endpoint
 * that answers again: its deliveries waiting out a back-off go at once). Returns how many.
 */
export async function runOwnersJobsNow(db: Queryable, kind: string, owners: readonly string[]): Promise<number> {
  if (owners.length === 0) return 0;
  const rows = await db.query<{ id: string }>(
    `UPDATE jobs SET run_after = now(), updated_at = now()
     WHERE kind = $1 AND owner = ANY($2::text[]) AND status = 'queued' AND run_after > now()
     RETURNING id`,
    [kind, [...owners]],
  );
  return rows.length;
}

export async function completeJob(db: Queryable, id: string): Promise<void> {
  await db.query("UPDATE jobs SET status = 'done', lease_until = NULL, updated_at = now() WHERE id = $1", [id]);
}

/** Puts the job back with a back-off, or marks it failed for good after MAX_ATTEMPTS. */
export async function failJob(db: Queryable, job: Job, error: string): Promise<'retry' | 'failed'> {
  const final = job.attempts >= MAX_ATTEMPTS;
  await db.query(
    `UPDATE jobs SET status = $2, last_error = $3, lease_until = NULL, updated_at = now(),
            run_after = now() + make_interval(secs => $4::double precision)
     WHERE id = $1`,
    [job.id, final ? 'failed' : 'queued', error.slice(0, 2000), 2 ** job.attempts],
  );
  return final ? 'failed' : 'retry';
}

/**
 * With the embedded database only one process can run jobs, so jobs left running by a process
 * that died are ours again at once instead of after their lease.
 */
export async function releaseOrphanedJobs(db: Queryable): Promise<number> {
  const rows = await db.query("UPDATE jobs SET status = 'queued', lease_until = NULL WHERE status = 'running' RETURNING id");
  return rows.length;
}

/**
 * Deletes jobs finished (done) before the retention period. Their outcome lives with what they
 * were for (the analysis, the Connect request); the row only slows every claim as dead rows
 * build up. Failed jobs stay, with their error, for an operator to read. Returns how many went.
 */
export async function purgeFinishedJobs(db: Queryable, days: number): Promise<number> {
  const rows = await db.query(
    "DELETE FROM jobs WHERE status = 'done' AND updated_at < now() - make_interval(days => $1::integer) RETURNING id",
    [days],
  );
  return rows.length;
}
