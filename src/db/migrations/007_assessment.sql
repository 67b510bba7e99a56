-- Registered users of group B: they hand out the personality test and look its takers up.
CREATE TABLE users (
  id text PRIMARY KEY,
  email text NOT NULL,
  -- Trimmed and lower-cased (src/people/normalize.ts): one account per address, however spelt.
  email_normalized text NOT NULL UNIQUE,
  -- scrypt: "scrypt$N$r$p$salt$hash" (src/users/passwords.ts).
  password_hash text NOT NULL,
  -- The id in the user's test link /t/<id>: unguessable, so nobody can pose as the user's test.
  test_link_id text NOT NULL UNIQUE,
  disabled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Server-side sessions, so logging out, disabling a user or a stolen cookie can be revoked.
-- Only a SHA-256 of the session id is kept; the cookie carries the id itself.
CREATE TABLE user_sessions (
  id_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX user_sessions_user ON user_sessions (user_id);

-- Assessment tokens made on the dashboard belong to a user; operator-made tokens have none.
ALTER TABLE api_tokens ADD COLUMN user_id text REFERENCES users (id);
CREATE INDEX api_tokens_user ON api_tokens (user_id) WHERE user_id IS NOT NULL;

-- A user's hiring links /h/<id>: a person who takes the test through one gets a hiring entry.
CREATE TABLE hiring_links (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL,
  url text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX hiring_links_user ON hiring_links (user_id, created_at);

-- One completed test. The person's row in `people` carries the estimate for everyone; this row
-- says through whose link it was taken, so /find answers only that user.
CREATE TABLE assessments (
  id text PRIMARY KEY,
  -- The random id the test page gave this attempt: a second submission of it is the same test.
  submission_id text NOT NULL UNIQUE,
  person_id text NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  hiring_link_id text REFERENCES hiring_links (id) ON DELETE SET NULL,
  questionnaire_version text NOT NULL,
  answers jsonb NOT NULL,
  estimate jsonb NOT NULL,
  -- SHA-256 of the secret in the delete link shown once on the result page.
  delete_hash text NOT NULL UNIQUE,
  -- What the person's row held before this test, so deleting the result can put it back.
  prior_estimate jsonb,
  prior_model_version text,
  prior_verified boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX assessments_user ON assessments (user_id, created_at);
CREATE INDEX assessments_person ON assessments (person_id, user_id);

-- Secrets the service makes for itself on first start (the cookie-signing key), shared by
-- every process on one database.
CREATE TABLE service_secrets (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
