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
