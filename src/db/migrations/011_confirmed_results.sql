-- A test result no longer claims a stored person by an address nobody confirmed. It keeps its
-- taker's own details and belongs at once to the user whose link was used (their /find, their
-- dashboard); it becomes the stored person's verified profile only once the taker confirms the
-- address through a link sent by mail (src/takers/confirm.ts).
ALTER TABLE assessments ADD COLUMN email text;
ALTER TABLE assessments ADD COLUMN email_normalized text;
ALTER TABLE assessments ADD COLUMN first_name text;
ALTER TABLE assessments ADD COLUMN last_name text;
-- When the taker confirmed the address; NULL: not confirmed, the result is its user's alone.
ALTER TABLE assessments ADD COLUMN confirmed_at timestamptz;
-- Results stored before confirmation existed had already become their person's profile: they
-- keep it, as confirmed results (nobody can confirm them after the fact).
UPDATE assessments SET email = p.email, email_normalized = p.email_normalized, first_name = p.first_name, last_name = p.last_name, confirmed_at = assessments.created_at
  FROM people p WHERE p.id = assessments.person_id;
ALTER TABLE assessments ALTER COLUMN email SET NOT NULL;
ALTER TABLE assessments ALTER COLUMN email_normalized SET NOT NULL;
-- Set when the result is confirmed: the person whose profile it then is.
ALTER TABLE assessments ALTER COLUMN person_id DROP NOT NULL;
CREATE INDEX assessments_email ON assessments (email_normalized, user_id, created_at);

-- When the account's address was confirmed (by mail, or by the operator who made it); NULL:
-- never. Where mail is set up only a confirmed account gets a free-tier token. Accounts made
-- before this existed keep their standing (and their tokens).
ALTER TABLE users ADD COLUMN email_confirmed_at timestamptz;
UPDATE users SET email_confirmed_at = created_at;

-- Links sent by mail: a result to confirm, a sign-up to finish, an account's address to
-- confirm. Single-use (the row is deleted when the link is followed), expiring, and only the
-- SHA-256 of the secret in the link is kept.
CREATE TABLE email_confirmations (
  token_hash text PRIMARY KEY,
  purpose text NOT NULL CHECK (purpose IN ('result', 'signup', 'account')),
  -- The result (purpose result) or the user (purpose account) the link confirms.
  subject_id text,
  -- The address the link was sent to, as typed and normalised.
  email text NOT NULL,
  email_normalized text NOT NULL,
  -- Purpose signup: the account is made only when the link is followed, with this password.
  password_hash text,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX email_confirmations_subject ON email_confirmations (subject_id) WHERE subject_id IS NOT NULL;
CREATE INDEX email_confirmations_email ON email_confirmations (email_normalized);
CREATE INDEX email_confirmations_expiry ON email_confirmations (expires_at);

-- Counts of events per key in fixed windows of the clock (test submissions per link, address
-- and network; sign-ups per address and network), in the database so that every process on it
-- counts against one window. The key (an address, a network) is kept only as a SHA-256.
CREATE TABLE limit_windows (
  key_hash text NOT NULL,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL,
  PRIMARY KEY (key_hash, window_start)
);
CREATE INDEX limit_windows_start ON limit_windows (window_start);
