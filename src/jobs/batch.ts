import { statement, type Queryable } from '../db/client.ts';
import type { Job } from './queue.ts';

/** A job that may be claimed now: queued and due, or running on a lease that has run out. */
const CLAIMABLE = '((j.status = \'queued\' AND j.run_after <= now()) OR (j.status = \'running\' AND j.lease_until < now()))';

/**
 * Prepared: planned once per connection instead of on every batch. The update finds its rows
 * by `id = ANY (ARRAY(...))`, an index lookup per id: a generic plan does not know the batch
 * size, and a join to `next` was planned as a hash join over a sequential scan of the whole
 * jobs table (its history of done jobs included).
 */
const CLAIM_FAIR = statement(
  'jobs_claim_fair_batch',
  `WITH RECURSIVE owners AS (
     (SELECT owner FROM jobs WHERE kind = $1 AND status IN ('queued', 'running') ORDER BY owner LIMIT 1)
     UNION ALL
     SELECT (SELECT j.owner FROM jobs j
             WHERE j.kind = $1 AND j.status IN ('queued', 'running') AND j.owner > o.owner
             ORDER BY j.owner LIMIT 1)
     FROM owners o WHERE o.owner IS NOT NULL
   ),
   share AS (
     SELECT least($2, ceil(2.0 * $2 / greatest(1, count(*))))::int AS per_owner
     FROM owners o
     WHERE o.owner IS NOT NULL
       AND (SELECT 1 FROM jobs j WHERE j.kind = $1 AND j.owner = o.owner AND j.status IN ('queued', 'running') AND ${CLAIMABLE} LIMIT 1) IS NOT NULL
   ),
   candidates AS MATERIALIZED (
     SELECT c.id, o.owner, t.last_claimed_at, c.run_after, c.created_at
     FROM owners o
     LEFT JOIN job_owners t ON t.owner = o.owner
     CROSS JOIN LATERAL (
       SELECT j.id, j.run_after, j.created_at
       FROM jobs j
       WHERE j.kind = $1 AND j.owner = o.owner AND j.status IN ('queued', 'running') AND ${CLAIMABLE}
       ORDER BY j.run_after, j.created_at
       LIMIT (SELECT per_owner FROM share)
       FOR UPDATE SKIP LOCKED
     ) c
     WHERE o.owner IS NOT NULL
   ),
   next AS MATERIALIZED (
     SELECT id, turn FROM (
       SELECT id, last_claimed_at, run_after, created_at,
              row_number() OVER (PARTITION BY owner ORDER BY run_after, created_at) AS turn
       FROM candidates
     ) ranked
     ORDER BY turn, last_claimed_at NULLS FIRST, run_after, created_at
     LIMIT $2
   ),
   claimed AS (
     UPDATE jobs SET status = 'running', attempts = attempts + 1, updated_at = now(),
            lease_until = now() + make_interval(secs => $3::double precision)
     WHERE id = ANY (ARRAY(SELECT id FROM next))
     RETURNING id, kind, payload, attempts, owner
   ),
   turns AS (
     INSERT INTO job_owners (owner, last_claimed_at)
     SELECT claimed.owner, max(at.now) + max(next.turn) * interval '1 microsecond'
     FROM claimed JOIN next ON next.id = claimed.id CROSS JOIN (SELECT clock_timestamp() AS now) at
     GROUP BY claimed.owner
     ORDER BY claimed.owner
     ON CONFLICT (owner) DO UPDATE SET last_claimed_at = excluded.last_claimed_at
   )
   SELECT id, kind, payload, attempts FROM claimed`,
);

/**
 * Claims up to `limit` jobs of one kind at once, for kinds whose jobs are small and many (a
 * Connect search is a few milliseconds): one statement per batch instead of two per job.
 *
 * Fair between owners, round robin: every owner's first due job, then every owner's second,
 * and so on; within a round, the owner served longest ago first (job_owners, the turn claimJob
 * keeps too). So one organisation's backlog of 50,000 searches takes part of each batch while
 * another organisation's single search goes in the next batch claimed.
 *
 * The work is bounded by about twice `limit` rows, not by the backlog: the owners with work
 * are found by a skip scan over the jobs_claimable_by_owner index (one probe per owner), and
 * each owner's first due jobs are read from it in order, up to twice its even share of the
 * batch between the owners with due jobs (all of it for a lone owner). With many owners a
 * batch can come out smaller than `limit` (owners with one job leave their share unused); the
 * next claim takes the rest.
 *
 * Each owner's candidates are locked as they are read, FOR UPDATE SKIP LOCKED, so several
 * worker processes share the queue and never take a job twice; a lone owner's candidates are
 * exactly the batch, and with several owners the candidates left out are unlocked when the
 * statement ends. The CTEs are MATERIALIZED and the owner check is a LIMIT 1 subquery so the
 * planner cannot turn them inside out: planned while the statistics said the queue was
 * empty, the inlined form joined every queued job to every owner (seconds per claim). Owner turns
 * are written in owner order, so two workers upserting the same owners cannot deadlock; an
 * owner that had a job in the batch's last, partial round is stamped a microsecond per round
 * later than one cut off before it, so the one cut off goes first in the next batch.
 */
export async function claimJobs(db: Queryable, kind: string, limit: number, leaseSeconds: number): Promise<Job[]> {
  const rows = await db.run<{ id: string; kind: string; payload: unknown; attempts: number }>(CLAIM_FAIR, [kind, limit, leaseSeconds]);
  return rows.map((row) => {
    const payload = typeof row.payload === 'string' ? (JSON.parse(row.payload) as unknown) : row.payload;
    return { id: row.id, kind: row.kind, attempts: row.attempts, payload: (payload ?? {}) as Record<string, unknown> };
  });
}

const COMPLETE = statement('jobs_complete', "UPDATE jobs SET status = 'done', lease_until = NULL, updated_at = now() WHERE id = ANY($1::text[])");

export async function completeJobs(db: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.run(COMPLETE, [[...ids]]);
}
