-- Signed webhooks (src/webhooks/README.md): where an owner wants events sent, and each event
-- sent to each endpoint (a delivery), retried by jobs of the queue until it is delivered or
-- its retry window ends.

-- An endpoint belongs to an API token (an organisation's connect token, an enterprise token)
-- or to a registered user (dashboard, or their assessment token): exactly one of the two.
CREATE TABLE webhook_endpoints (
  id text PRIMARY KEY,
  owner_token_id text REFERENCES api_tokens (id) ON DELETE CASCADE,
  owner_user_id text REFERENCES users (id) ON DELETE CASCADE,
  url text NOT NULL,
  -- The event types sent here (src/webhooks/events.ts).
  events text[] NOT NULL,
  description text NOT NULL DEFAULT '',
  -- The signing secret (whsec_…). Kept as is: every delivery is signed with it. It is shown to
  -- the owner once, when made or rotated, and never listed.
  secret text NOT NULL,
  -- After a rotation the old secret signs too (a second signature) until this time.
  previous_secret text,
  previous_secret_until timestamptz,
  -- Since when every attempt has failed; NULL after a success. A day of it disables the endpoint.
  failing_since timestamptz,
  disabled_at timestamptz,
  disabled_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((owner_token_id IS NULL) <> (owner_user_id IS NULL))
);
CREATE INDEX webhook_endpoints_token ON webhook_endpoints (owner_token_id) WHERE owner_token_id IS NOT NULL;
CREATE INDEX webhook_endpoints_user ON webhook_endpoints (owner_user_id) WHERE owner_user_id IS NOT NULL;

-- One event for one endpoint. The id is the webhook-id header: the same on every attempt, so a
-- receiver can drop a repeat. The body is the exact JSON signed and sent, kept until the
-- delivery ends (delivered, or given up), then cleared with the address it may name.
CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  endpoint_id text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_type text NOT NULL,
  body text,
  -- The person an assessment event names, normalised: `rapport people delete` finds their
  -- pending deliveries by it.
  email_normalized text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  -- The receiver's last HTTP status, or NULL when it gave none (refused, timed out).
  last_status integer,
  last_error text,
  next_attempt_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at);
CREATE INDEX webhook_deliveries_email ON webhook_deliveries (email_normalized) WHERE email_normalized IS NOT NULL;
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (finished_at) WHERE finished_at IS NOT NULL;
