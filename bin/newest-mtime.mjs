// Shared by bin/rapport.mjs (is dist/ older than src/?) and scripts/build.mjs (may `prepare`
// leave dist/ as it is?). Plain Node: both run before anything is compiled.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Newest modification time of a file, or of anything under a folder, in ms; 0 where there is none. */
export function newestMtime(at) {
  if (!existsSync(at)) return 0;
  const stat = statSync(at);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(at)) newest = Math.max(newest, newestMtime(path.join(at, name)));
  return newest;
}
