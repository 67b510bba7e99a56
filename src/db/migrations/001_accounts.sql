-- API tokens: only a SHA-256 hash of each token is kept; the token itself is shown once.
CREATE TABLE api_tokens (
  id text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('enterprise', 'assessment', 'connect')),
  name text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  -- The first characters of the token, so an operator can tell tokens apart in `tokens list`.
  token_prefix text NOT NULL,
  -- NULL: no monthly quota.
  monthly_quota integer CHECK (monthly_quota IS NULL OR monthly_quota >= 0),
  -- NULL: no per-minute rate limit.
  rate_limit_per_minute integer CHECK (rate_limit_per_minute IS NULL OR rate_limit_per_minute > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

-- Calls served per token and calendar month (UTC). A year is the sum of its months.
CREATE TABLE usage_counters (
  token_id text NOT NULL REFERENCES api_tokens (id),
  month text NOT NULL CHECK (month ~ '^\d{4}-\d{2}$'),
  calls bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (token_id, month)
);
