-- Durable background work. Workers claim rows with FOR UPDATE SKIP LOCKED, so several
-- processes can share the queue and a crashed worker's job is picked up again once its lease ends.
CREATE TABLE jobs (
  id text PRIMARY KEY,
  kind text NOT NULL,
  payload jsonb NOT NULL,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  run_after timestamptz NOT NULL DEFAULT now(),
  lease_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX jobs_claimable ON jobs (run_after) WHERE status IN ('queued', 'running');

-- Text and PDF analyses requested through group A, readable only by the token that asked.
CREATE TABLE analyses (
  id text PRIMARY KEY,
  token_id text NOT NULL REFERENCES api_tokens (id),
  source text NOT NULL CHECK (source IN ('text', 'pdf')),
  status text NOT NULL CHECK (status IN ('processing', 'complete', 'no_personality')),
  -- The uploaded bytes, kept until the analysis ends so a restart can resume it.
  input bytea,
  estimate jsonb,
  failure_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz
);
CREATE INDEX analyses_token ON analyses (token_id, created_at);
