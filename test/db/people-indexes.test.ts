import { describe, expect, it } from 'vitest';
import { useTestDb } from '../helpers/db.ts';

/**
 * Every index on people is paid for by every imported or updated person: the table keeps only
 * those a statement of the service reads through (migration 014 dropped two trigram indexes no
 * statement ever used). A new index belongs here with the statement that needs it.
 */
describe('the indexes of the people table', () => {
  const testDb = useTestDb();

  it('are the ones the lookups and the name search use, and no unused trigram index is left', async () => {
    const rows = await testDb.db.query<{ indexname: string }>("SELECT indexname FROM pg_indexes WHERE tablename = 'people' ORDER BY indexname");
    expect(rows.map((r) => r.indexname)).toEqual([
      'people_email_normalized_key', // GET /v1/profiles?email=, the import's matching
      'people_first_key', // name search stage 2
      'people_last_first_key', // name search stage 1
      'people_last_initial', // name search stage 1, a first name's initial
      'people_linkedin_key_key', // GET /v1/profiles?linkedin_url=, the import's matching
      'people_name_key_trgm', // name search stage 3
      'people_pkey',
      'people_public_id_key', // profile pages
    ]);
  });

  it('still finds a misspelt whole name through the trigram index that is left', async () => {
    const { db } = testDb;
    await db.query(
      `INSERT INTO people (id, public_id, email, email_normalized, first_name, last_name) VALUES
       ('per_index_a', 'pp_index_a', 'a@example.com', 'a@example.com', 'Margarethe', 'Vandermolen')`,
    );
    const found = await db.query<{ id: string }>('SELECT id FROM people WHERE name_key % $1 ORDER BY similarity(name_key, $1) DESC LIMIT 5', ['margarete vandermollen']);
    expect(found.map((r) => r.id)).toContain('per_index_a');
  });
});
