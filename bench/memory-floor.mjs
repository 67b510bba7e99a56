/**
 * The floor for bench/memory.ts: a process that only opens the embedded database on a fresh
 * data directory, the way the service does, applies the schema and then sits idle. Plain
 * JavaScript, so that (like `npm start`) it runs dist/ without tsx's loader in memory when
 * dist/ is built and current; the sources through tsx otherwise, as bin/rapport.mjs picks.
 * Prints `FLOOR <idle MB> <peak MB> <dist|source>`.
 *
 *   node bench/memory-floor.mjs <data dir>
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { newestMtime } from '../bin/newest-mtime.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist/.build-stamp');
const compiled = existsSync(stamp) && newestMtime(path.join(root, 'src')) <= statSync(stamp).mtimeMs;
if (!compiled) (await import('tsx/esm/api')).register();
const { openDatabase } = await import(pathToFileURL(path.join(root, compiled ? 'dist/db/open.js' : 'src/db/open.ts')).href);

const opened = await openDatabase({ dataDir: process.argv[2], databaseUrl: null });
await new Promise((resolve) => setTimeout(resolve, Number(process.env.IDLE_MS ?? 10_000)));
const status = readFileSync('/proc/self/status', 'utf8');
const mb = (field) => Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
process.stdout.write(`FLOOR ${mb('VmRSS')} ${mb('VmHWM')} ${compiled ? 'dist' : 'source'}\n`);
await opened.close();
