#!/usr/bin/env node
// Runs the compiled service and CLI from dist/ (built by `npm install` through `prepare`). In a
// checkout where dist/ is missing or older than a file under src/ (someone is editing the
// sources), it runs the TypeScript sources through tsx instead, so a stale build never runs by
// surprise. RAPPORT_RUNTIME=dist or RAPPORT_RUNTIME=source forces one of the two.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { newestMtime } from './newest-mtime.mjs';
import { tuneForCommand } from './v8-flags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The build's bundle of dist/cli/main.js and what it loads (scripts/bundle-main.mjs).
const compiledMain = path.join(root, 'dist/bundle/rapport.js');
const stamp = path.join(root, 'dist/.build-stamp');

function useCompiled() {
  const forced = process.env.RAPPORT_RUNTIME;
  if (forced === 'dist') {
    if (!existsSync(compiledMain)) {
      console.error('RAPPORT_RUNTIME=dist but dist/ is not built: run `npm run build`.');
      process.exit(1);
    }
    return true;
  }
  if (forced === 'source') return false;
  if (forced !== undefined && forced !== '') {
    console.error(`RAPPORT_RUNTIME must be "dist" or "source", not "${forced}".`);
    process.exit(1);
  }
  if (!existsSync(compiledMain) || !existsSync(stamp)) return false;
  const sources = path.join(root, 'src');
  // A packaged copy may ship dist/ without src/: then dist is all there is.
  return !existsSync(sources) || newestMtime(sources) <= statSync(stamp).mtimeMs;
}

tuneForCommand(process.argv);
let main;
if (useCompiled()) {
  ({ main } = await import(pathToFileURL(compiledMain).href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
await main(process.argv);
