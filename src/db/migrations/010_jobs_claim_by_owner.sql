-- Batch claims (src/jobs/batch.ts) take jobs round robin between owners: they find the owners
-- with work by a skip scan over (kind, owner), then read each owner's first due jobs in
-- (run_after, created_at) order, all from this index, so a claim reads about two batches of
-- rows however long one owner's backlog is. Partial: done and failed jobs are most of the table.
CREATE INDEX jobs_claimable_by_owner ON jobs (kind, owner, run_after, created_at) WHERE status IN ('queued', 'running');
-- It also serves claimJob's count of running jobs per owner (kind, then owner), which this
-- index on owner alone was for; one index fewer to update on every claim.
DROP INDEX jobs_active_owner;
