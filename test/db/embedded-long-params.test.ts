import type { PGlite } from '@electric-sql/pglite';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { LONG_TEXT_CHARS, longTextAsBytes } from '../../src/db/pglite-internals.ts';
import { useTestDb } from '../helpers/db.ts';

/**
 * The embedded database sends a long text, json or jsonb parameter (an import batch's JSON) as
 * UTF-8 bytes in binary format instead of through PGlite's character-by-character writer
 * (src/db/pglite-internals.ts, longTextAsBytes). What the database receives must be the same
 * text: checked here through the Db on either database, and on PGlite itself, so that an
 * upgrade that stops sending bytes as the text fails here.
 */

/** Over the threshold, with what UTF-8 spends 1 to 4 bytes on and what JSON escapes. */
const words = ['Zoë', 'Łukasz', '東京', '🙂', 'quote "x"', 'back\\slash', 'tab\there', 'line\nbreak', 'plain'];
const longText = Array.from({ length: LONG_TEXT_CHARS / 4 }, (_, i) => `${words[i % words.length]} ${i}`).join(' · ');
const rows = Array.from({ length: 300 }, (_, i) => ({ id: `p${i}`, name: words[i % words.length], texts: [{ type: 'bio', text: words.slice(0, (i % words.length) + 1).join(' ') }] }));
const longJson = JSON.stringify(rows);

describe('long text and JSON parameters on the embedded database', () => {
  const testDb = useTestDb();
  let db: Db;
  beforeAll(async () => {
    db = testDb.db;
  });

  it('are over the threshold in this test (else it would test the ordinary path)', () => {
    expect(longText.length).toBeGreaterThan(LONG_TEXT_CHARS);
    expect(longJson.length).toBeGreaterThan(LONG_TEXT_CHARS);
  });

  it('a jsonb parameter arrives as the same JSON, through jsonb_to_recordset as the import sends it', async () => {
    const read = await db.query<{ id: string; name: string; texts: unknown }>('SELECT r.id, r.name, r.texts FROM jsonb_to_recordset($1::jsonb) AS r(id text, name text, texts jsonb)', [longJson]);
    expect(read).toEqual(rows);
  });

  it('inside a transaction as well', async () => {
    const read = await db.transaction((tx) => tx.query<{ same: boolean; n: number }>('SELECT $1::jsonb = $2::text::jsonb AS same, jsonb_array_length($1::jsonb) AS n', [longJson, longJson]));
    expect(read).toEqual([{ same: true, n: rows.length }]);
  });

  it('text and json parameters arrive as the same text, characters and bytes', async () => {
    const [row] = await db.query<{ t: string; chars: number; bytes: number; j: string }>('SELECT $1::text AS t, length($1::text) AS chars, octet_length($1::text) AS bytes, $2::json::text AS j', [longText, longJson]);
    expect(row?.t).toBe(longText);
    expect(row?.chars).toBe([...longText].length);
    expect(row?.bytes).toBe(Buffer.byteLength(longText));
    expect(row?.j).toBe(longJson);
  });

  it('a lone surrogate becomes U+FFFD, as PGlite writes a short one', async () => {
    const broken = `${longText}\uD800 end`;
    const [row] = await db.query<{ t: string }>('SELECT $1::text AS t', [broken]);
    expect(row?.t).toBe(`${longText}\uFFFD end`);
  });

  it('JSON the database refuses is refused with the same data-exception code (the import then writes row by row)', async () => {
    const refused = (value: string) => db.query('SELECT $1::jsonb AS j', [value]).then(() => 'accepted', (error: { code?: string }) => error.code);
    expect(await refused(`${longJson.slice(0, -1)},]`)).toBe('22P02');
    expect(await refused('[1,]')).toBe('22P02');
    const nul = JSON.stringify([longText, 'a\u0000b']);
    expect(await refused(nul)).toBe(await refused(JSON.stringify(['a\u0000b'])));
  });

  it("PGlite sends a serializer's bytes as the binary parameter (the behaviour relied on; see src/db/pglite-internals.ts)", async (context) => {
    const pglite = (db as Db & { pglite?: PGlite }).pglite;
    if (!pglite) return context.skip();
    const serializers = longTextAsBytes(pglite);
    const result = await pglite.query<{ j: unknown; t: string }>('SELECT $1::jsonb AS j, $2::text AS t', [longJson, longText], { serializers });
    expect(result.rows).toEqual([{ j: rows, t: longText }]);
    // Short values take PGlite's own path, objects included.
    const short = await pglite.query<{ j: unknown }>('SELECT $1::jsonb AS j', [{ a: 'Zoë' }], { serializers });
    expect(short.rows).toEqual([{ j: { a: 'Zoë' } }]);
  });
});
