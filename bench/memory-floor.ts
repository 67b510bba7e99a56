/**
 * The floor for bench/memory.ts: a process that only opens the embedded database on a fresh
 * data directory, the way the service does (from dist/ when it is built and current, as
 * bin/rapport.mjs picks), applies the schema and then sits idle. Prints `FLOOR <idle> <peak>` in MB.
 *
 *   node --import tsx bench/memory-floor.ts <data dir>
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../test/helpers/process.ts';
import type { openDatabase as OpenDatabase } from '../src/db/open.ts';

/** Newest modification time under `at` (bin/newest-mtime.mjs, which TypeScript cannot import typed). */
function newestMtime(at: string): number {
  const stat = statSync(at);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(at).map((name) => newestMtime(path.join(at, name))));
}

const stamp = path.join(REPO_ROOT, 'dist/.build-stamp');
const compiled = existsSync(stamp) && newestMtime(path.join(REPO_ROOT, 'src')) <= statSync(stamp).mtimeMs;
const module = compiled ? path.join(REPO_ROOT, 'dist/db/open.js') : path.join(REPO_ROOT, 'src/db/open.ts');
const { openDatabase } = (await import(pathToFileURL(module).href)) as { openDatabase: typeof OpenDatabase };

const dataDir = process.argv[2] ?? '';
const opened = await openDatabase({ dataDir, databaseUrl: null });
await new Promise((resolve) => setTimeout(resolve, Number(process.env.IDLE_MS ?? 10_000)));
const status = readFileSync('/proc/self/status', 'utf8');
const mb = (field: string) => Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
process.stdout.write(`FLOOR ${mb('VmRSS')} ${mb('VmHWM')} ${compiled ? 'dist' : 'source'}\n`);
await opened.close();
