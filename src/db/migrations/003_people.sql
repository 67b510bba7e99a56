-- People known to the service: imported datasets, demo people, later test takers.
-- Trigram indexes serve the name and company search of group C.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE people (
  id text PRIMARY KEY,
  -- Unguessable: it is the only key in a profile page URL.
  public_id text NOT NULL UNIQUE,
  email text,
  -- Trimmed and lower-cased (src/people/normalize.ts). Lookups go through this column only.
  email_normalized text UNIQUE,
  linkedin_url text,
  -- The profile URL reduced to `in/<slug>` or `pub/<slug>/...`, so every spelling of one URL matches.
  linkedin_key text UNIQUE,
  first_name text,
  last_name text,
  photo_url text,
  company_name text,
  title text,
  location text,
  -- Text samples: [{"type": "email" | "various" | "bio" | "resume", "text": "..."}].
  texts jsonb NOT NULL DEFAULT '[]',
  -- The TraitEstimate; NULL = no personality (too little or unusable text).
  estimate jsonb,
  -- The text model that produced `estimate` (also set when it yielded none), so a new model can recompute.
  model_version text,
  -- True when the personality comes from Rapport's own assessment; imports never overwrite it.
  verified boolean NOT NULL DEFAULT false,
  source text NOT NULL DEFAULT 'import',
  -- SHA-256 of `texts`: an import compares it to tell whether the texts (and the estimate) change.
  texts_hash text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (email_normalized IS NOT NULL OR linkedin_key IS NOT NULL)
);

-- A later name search must use exactly these expressions to hit the indexes.
CREATE INDEX people_name_trgm ON people USING gin ((lower(coalesce(first_name, '') || ' ' || coalesce(last_name, ''))) gin_trgm_ops);
CREATE INDEX people_company_trgm ON people USING gin ((lower(company_name)) gin_trgm_ops);
