import { readFileSync } from 'node:fs';

let cached: string | undefined;

/**
 * The version in package.json, the one place it is kept. Read from the file next to the
 * sources rather than npm's environment, because bin/rapport.mjs is also run directly with node.
 */
export function packageVersion(): string {
  if (cached !== undefined) return cached;
  const manifest: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  const version = typeof manifest === 'object' && manifest !== null ? (manifest as { version?: unknown }).version : undefined;
  cached = typeof version === 'string' ? version : 'unknown';
  return cached;
}
