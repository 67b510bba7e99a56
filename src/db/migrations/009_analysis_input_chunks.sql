-- On PostgreSQL an uploaded PDF waits in the database (any worker machine can take its job) as
-- pieces of 256 KiB, written and read one at a time: a 10 MB upload is never held whole in a
-- process's memory, nor sent or parsed as one 20 MB value. The embedded database keeps uploads
-- on disk instead and leaves this table empty.
CREATE TABLE analysis_input_chunks (
  analysis_id text NOT NULL REFERENCES analyses (id) ON DELETE CASCADE,
  seq integer NOT NULL,
  bytes bytea NOT NULL,
  PRIMARY KEY (analysis_id, seq)
);

-- Uploads still waiting in the old single column move over as one piece each.
INSERT INTO analysis_input_chunks (analysis_id, seq, bytes)
  SELECT id, 0, input FROM analyses WHERE input IS NOT NULL AND status = 'processing';
UPDATE analyses SET input = NULL WHERE input IS NOT NULL;
