/**
 * SQLSTATEs that mean a prepared statement no longer works as prepared, though its SQL still
 * would: 26000 (it was deallocated, e.g. by DISCARD ALL or a pooler) and 0A000 with "cached
 * plan must not change result type" (a migration changed the columns it returns). Both
 * database clients then prepare it again and retry once, instead of failing every lookup
 * until a restart.
 */
export function isStalePreparedStatement(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code === '26000') return true;
  return code === '0A000' && typeof message === 'string' && message.includes('cached plan must not change result type');
}
