-- The organisation a user hands the test out for, set on the dashboard: the test's first
-- screen names it, so a taker knows who is asking. NULL: not set (the screen says so).
ALTER TABLE users ADD COLUMN organisation_name text;

-- A hiring link closed on the dashboard takes no more tests; the results it brought stay.
ALTER TABLE hiring_links ADD COLUMN closed_at timestamptz;

-- A taker's private, revocable link to their result (/s/<share_id>): read-only, with no way to
-- delete or share it further. NULL: no link, or revoked. Unguessable, like a profile page's id.
ALTER TABLE assessments ADD COLUMN share_id text UNIQUE;

-- Password-reset links join the links sent by mail (src/users/password-reset.ts).
ALTER TABLE email_confirmations DROP CONSTRAINT email_confirmations_purpose_check;
ALTER TABLE email_confirmations ADD CONSTRAINT email_confirmations_purpose_check CHECK (purpose IN ('result', 'signup', 'account', 'password'));
