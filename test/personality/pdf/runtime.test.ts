/**
 * Run from the sources, a worker thread starts from dist/'s compiled entry when the build is
 * current, and otherwise from a boot file that loads the TypeScript entry through tsx's API
 * (src/shared/worker-entry.ts). The boot file must work however the service is started, not
 * only under vitest: by bin/rapport.mjs (tsx registered in code) and by `node --import tsx`;
 * those cases force it (RAPPORT_RUNTIME=source). Each case runs a real child process and leaves
 * the extractor unclosed, to show an idle pool does not keep the process alive.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('../../../', import.meta.url);
const url = (path: string): string => new URL(path, root).href;

const script = `
const { PdfExtractor } = await import(${JSON.stringify(url('src/personality/pdf/index.ts'))});
const { resumePdf } = await import(${JSON.stringify(url('test/personality/pdf/fixtures.ts'))});
const result = await new PdfExtractor().extract(await resumePdf());
console.log(JSON.stringify({ ok: result.ok, pages: result.ok ? result.pages : 0 }));
`;

async function runNode(nodeArgs: string[], preamble = '', code = script, runtime = 'source'): Promise<string> {
  const args = [...nodeArgs, '--input-type=module', '-e', preamble + code];
  const { stdout } = await run(process.execPath, args, { cwd: fileURLToPath(root), timeout: 30_000, env: { ...process.env, RAPPORT_RUNTIME: runtime } });
  return stdout.trim();
}

/** Where a thread of the PDF extractor would start from, as the sources decide it. */
const entryScript = `
const { workerEntry } = await import(${JSON.stringify(url('src/shared/worker-entry.ts'))});
console.log(workerEntry(${JSON.stringify(url('src/personality/pdf/extractor.ts'))}, './worker.ts', './worker-boot.mjs').href);
`;

describe('PDF worker outside vitest', () => {
  it('works when tsx is registered in code, as bin/rapport.mjs does', async () => {
    const preamble = 'import { register } from \'tsx/esm/api\'; register();';
    expect(await runNode([], preamble)).toBe('{"ok":true,"pages":2}');
  });

  it('works under node --import tsx', async () => {
    expect(await runNode(['--import', 'tsx'])).toBe('{"ok":true,"pages":2}');
  });

  it('starts from the compiled entry in dist/ when the build is current, from the boot file when the sources are asked for', async () => {
    expect(await runNode(['--import', 'tsx'], '', entryScript, 'dist')).toBe(url('dist/personality/pdf/worker.js'));
    expect(await runNode(['--import', 'tsx'], '', entryScript, 'source')).toBe(url('src/personality/pdf/worker-boot.mjs'));
  });
});
