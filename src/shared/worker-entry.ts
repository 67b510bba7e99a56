import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
// The same freshness rule as bin/rapport.mjs, from the same function.
import { newestMtime } from '../../bin/newest-mtime.mjs';

/**
 * The file to give `new Worker()` or piscina's `filename` (its `.href`), in both ways the code
 * runs. From the compiled build (a `.js` file in dist/) a thread starts from the compiled entry.
 * From the sources (this module is a `.ts` file: tsx, vitest), a thread does not inherit the
 * main thread's TypeScript loader; it starts from the compiled twin of its entry in dist/ when
 * the build is current, by the rule bin/rapport.mjs uses for a whole process (no file under
 * src/ newer than dist/.build-stamp; RAPPORT_RUNTIME=dist or =source forces one side), and
 * otherwise from a small plain-JavaScript boot file that loads tsx itself and imports the
 * TypeScript entry. Loading tsx cost each such thread ~0.5 s of CPU (against ~0.1–0.25 s for
 * the compiled entry), and the tests start dozens of threads.
 *
 *   const WORKER_URL = workerEntry(import.meta.url, './worker.ts', './worker-boot.mjs');
 */
export function workerEntry(callerUrl: string, tsEntry: string, bootFile: string): URL {
  const compiled = tsEntry.replace(/\.ts$/, '.js');
  if (callerUrl.endsWith('.js')) return new URL(compiled, callerUrl);
  const dist = currentBuildFor(fileURLToPath(callerUrl));
  if (dist !== null) {
    const twin = path.join(dist.root, path.relative(dist.sources, fileURLToPath(new URL(compiled, callerUrl))));
    if (existsSync(twin)) return pathToFileURL(twin);
  }
  return new URL(bootFile, callerUrl);
}

interface Build {
  /** src/ */
  sources: string;
  /** dist/, compiled from it */
  root: string;
}

/** Per process: whether the build beside these sources is current, decided once (a stat of each file under src/). */
let decided: { build: Build | null } | null = null;

function currentBuildFor(sourceFile: string): Build | null {
  decided ??= { build: decideBuild(sourceFile) };
  return decided.build;
}

function decideBuild(sourceFile: string): Build | null {
  const forced = process.env.RAPPORT_RUNTIME;
  if (forced === 'source') return null;
  const sources = sourcesFolderOf(sourceFile);
  if (sources === null) return null;
  const root = path.join(path.dirname(sources), 'dist');
  const stamp = path.join(root, '.build-stamp');
  if (!existsSync(stamp)) return null;
  if (forced === 'dist') return { sources, root };
  return newestMtime(sources) <= statSync(stamp).mtimeMs ? { sources, root } : null;
}

/** The `src` folder a source file is under, or null. */
function sourcesFolderOf(file: string): string | null {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (path.basename(dir) === 'src') return dir;
  }
  return null;
}
