-- Connect (group C): name search over people, and the profile requests it answers.

-- The key a name is searched by: lower-cased, common Latin accents and ligatures folded, runs of
-- spaces, hyphens, dots, commas, apostrophes and underscores made one space. `unaccent` is not
-- available on the embedded database, so the folding is spelled out; the search applies this
-- same function to what the caller typed, so both sides always agree.
CREATE FUNCTION rapport_name_key(value text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT btrim(regexp_replace(
    translate(
      replace(replace(replace(replace(replace(replace(replace(replace(lower(coalesce(value, '')),
        'ß', 'ss'), 'æ', 'ae'), 'œ', 'oe'), 'ø', 'o'), 'ł', 'l'), 'đ', 'd'), 'ı', 'i'), 'ð', 'd'),
      'àáâãäåāăąçćčďèéêëēėęěğìíîïīįľĺñńňòóôõöōőŕřśšşșťțùúûüūůűųýÿžźż',
      'aaaaaaaaacccdeeeeeeeegiiiiiillnnnooooooorrssssttuuuuuuuuyyzzz'),
    '[[:space:]''’.,_-]+', ' ', 'g'))
$$;

ALTER TABLE people
  ADD COLUMN first_key text GENERATED ALWAYS AS (rapport_name_key(first_name)) STORED,
  ADD COLUMN last_key text GENERATED ALWAYS AS (rapport_name_key(last_name)) STORED,
  ADD COLUMN name_key text GENERATED ALWAYS AS (rapport_name_key(coalesce(first_name, '') || ' ' || coalesce(last_name, ''))) STORED;

-- Exact names and nicknames (last name equal, first name one of a few spellings).
CREATE INDEX people_last_first_key ON people (last_key, first_key);
-- A known first name (or nickname) with a mistyped last name.
CREATE INDEX people_first_key ON people (first_key);
-- Small typos: trigram similarity over the whole name.
CREATE INDEX people_name_key_trgm ON people USING gin (name_key gin_trgm_ops);

-- One search through group C, readable only by the organisation token that made it. Its id is
-- what relationships, messaging and emails take.
CREATE TABLE profile_requests (
  id text PRIMARY KEY,
  token_id text NOT NULL REFERENCES api_tokens (id),
  status text NOT NULL CHECK (status IN ('processing', 'complete', 'error', 'not_found')),
  -- The criteria and text sample, kept only while the request is unfinished (a restart resumes
  -- from them) and cleared when it ends.
  input jsonb,
  -- The stored person it matched; NULL when the text sample alone made the profile.
  person_id text,
  first_name text,
  last_name text,
  title text,
  -- The TraitEstimate the answer is written from.
  estimate jsonb,
  has_assessment boolean NOT NULL DEFAULT false,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz
);
-- Finished requests are purged after RAPPORT_REQUEST_RETENTION_DAYS.
CREATE INDEX profile_requests_age ON profile_requests (created_at);
