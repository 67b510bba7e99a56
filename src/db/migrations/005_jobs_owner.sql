-- Fair scheduling between callers: each job names the token it works for (its owner), and the
-- queue hands the next job to the owner with the fewest jobs running, then the one served
-- longest ago, so one token's backlog cannot hold another token's small job behind it.
-- Jobs queued before this column existed, and internal work, share the owner ''.
ALTER TABLE jobs ADD COLUMN owner text NOT NULL DEFAULT '';
CREATE INDEX jobs_active_owner ON jobs (owner) WHERE status IN ('queued', 'running');

-- When each owner last had a job claimed: the round-robin turn. One row per owner that ever
-- queued work (a token), so it stays small.
CREATE TABLE job_owners (
  owner text PRIMARY KEY,
  last_claimed_at timestamptz NOT NULL
);
