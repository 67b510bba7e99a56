-- Connect name search, stage 1 (src/people/search.ts): same last name, and a first name that is a
-- known spelling or starts with the same letter. With only (last_key, first_key) every person of
-- that last name was read from the table to test the initial (about 140 rows over 40 pages at
-- 100,000 people); with this index both arms are index lookups and only the few candidates are
-- read (about 5 pages).
CREATE INDEX people_last_initial ON people (last_key, left(first_key, 1));
