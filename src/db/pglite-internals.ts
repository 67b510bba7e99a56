import type { PGlite } from '@electric-sql/pglite';

/**
 * Every use of PGlite's private API, in one place.
 *
 * Why: the prepared statements of `embedded-statements.ts` talk to PGlite with `execProtocol`
 * (public), which takes none of the locks that `query()` takes. A statement sent that way could
 * land between two statements of another caller's open transaction, or interleave with a
 * `query()` in flight. PGlite has no public way to take those locks, so this module calls the
 * three private methods `query()` itself uses: `_checkReady` (a closed database says so),
 * `_runExclusiveTransaction` (wait for an open transaction to end) and `_runExclusiveQuery`
 * (one query at a time). The price: a PGlite upgrade may rename or change them without notice.
 * test/db/pglite-internals.test.ts checks they exist and still lock; the start-up check below
 * stops the service with a clear message rather than a 500 on the first lookup.
 *
 * Checked against @electric-sql/pglite 0.5.16 (pinned in package.json).
 */

/** The private methods relied on, as PGlite 0.5.16 declares them (abstract in BasePGlite). */
interface PgliteLocks {
  _checkReady(): Promise<void>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
}

const PRIVATE_METHODS = ['_checkReady', '_runExclusiveTransaction', '_runExclusiveQuery'] as const;

/** The PGlite version these internals were last checked against. */
export const PGLITE_INTERNALS_CHECKED_WITH = '0.5.16';

/**
 * The names of the private methods this PGlite lacks (empty when all are there). Used at start
 * and by the upgrade test.
 */
export function missingPgliteInternals(pglite: PGlite): string[] {
  const methods = pglite as unknown as Record<string, unknown>;
  return PRIVATE_METHODS.filter((name) => typeof methods[name] !== 'function');
}

/** Throws, naming the missing methods and this file, when an upgrade removed one of them. */
export function assertPgliteInternals(pglite: PGlite): void {
  const missing = missingPgliteInternals(pglite);
  if (missing.length === 0) return;
  throw new Error(
    `PGlite's private ${missing.join(', ')} changed (checked with ${PGLITE_INTERNALS_CHECKED_WITH}); ` +
      'the embedded prepared statements need them: see src/db/pglite-internals.ts',
  );
}

/**
 * Runs `fn` holding both of PGlite's locks, as `query()` does: it waits for any open
 * transaction of another caller and for the query in flight, and nothing else runs on the
 * database until `fn` has settled. A closed database rejects first, as `query()` would.
 */
export async function runExclusively<T>(pglite: PGlite, fn: () => Promise<T>): Promise<T> {
  const locks: PgliteLocks = pglite;
  await locks._checkReady();
  return locks._runExclusiveTransaction(() => locks._runExclusiveQuery(fn));
}

/**
 * Sends `message` and hands each chunk of the database's answer, the wire protocol's bytes
 * exactly as PostgreSQL wrote them, to `onChunk` (embedded-rows.ts reads the rows from them).
 *
 * Public (`execProtocolRawStream`), but it bypasses what `execProtocol()` does with an answer:
 * errors are not thrown (the reader must throw them), notices and LISTEN notifications are not
 * dispatched (the prepared statements neither listen nor notify), and a chunk is a view of
 * the database's memory, valid only during the call. Files are synced afterwards as
 * `execProtocol()` does. test/db/pglite-internals.test.ts checks that the chunks still add up
 * to the wire protocol's messages.
 */
export function streamProtocol(pglite: PGlite, message: Uint8Array, onChunk: (chunk: Uint8Array) => void): Promise<void> {
  return pglite.execProtocolRawStream(message, { onRawData: onChunk });
}

/** Parameters of these types at least this long (UTF-16 units) go as UTF-8 bytes (longTextAsBytes). */
export const LONG_TEXT_CHARS = 8192;

const TEXT_OID = 25;
const JSON_OID = 114;
const JSONB_OID = 3802;
/** jsonb's binary input format: a version byte (1), then the JSON text (PostgreSQL's jsonb_recv). */
const JSONB_BINARY_VERSION = 1;

/** A serializer as PGlite calls it: its declared type says a string, but bytes are sent as binary. */
type PgliteSerializer = (value: unknown) => string;

/**
 * Serializers for PGlite's `query()` option `serializers` that send a long text, json or jsonb
 * parameter (an import batch's ~1 MB JSON) as UTF-8 bytes in PostgreSQL's binary format.
 *
 * Why: PGlite's protocol writer measures a string parameter's UTF-8 length in JavaScript, one
 * character at a time, twice (once for the length word, once to size its buffer): ~15 % of the
 * import's main thread. Node encodes the same string natively in one pass. The binary form of
 * text and json is the UTF-8 text itself, and of jsonb a version byte before it; PostgreSQL
 * reads it with the same parser as the text form, so what is stored is the same.
 *
 * Beyond PGlite's contract: its `Serializer` type returns a string, and its `query()` sends a
 * Uint8Array parameter in binary format because its protocol writer does so (what bytea
 * parameters use). Checked with PGlite 0.5.16; test/db/embedded-long-params.test.ts fails if
 * an upgrade stops sending such a value as the stored text. Shorter values, and every other
 * type, are serialized as PGlite would.
 */
export function longTextAsBytes(pglite: PGlite): Record<number, PgliteSerializer> {
  const asBytes = (oid: number, prefix: number | null): PgliteSerializer => {
    const fallback = pglite.serializers[oid];
    return (value) => {
      if (typeof value !== 'string' || value.length < LONG_TEXT_CHARS) return fallback ? fallback(value) : String(value);
      const start = prefix === null ? 0 : 1;
      const bytes = Buffer.allocUnsafe(start + Buffer.byteLength(value, 'utf8'));
      if (prefix !== null) bytes[0] = prefix;
      bytes.write(value, start, 'utf8');
      return bytes as unknown as string;
    };
  };
  return { [TEXT_OID]: asBytes(TEXT_OID, null), [JSON_OID]: asBytes(JSON_OID, null), [JSONB_OID]: asBytes(JSONB_OID, JSONB_BINARY_VERSION) };
}
