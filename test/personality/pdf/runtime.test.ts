/**
 * The worker entry is loaded through tsx's API, so it must work however the service is
 * started, not only under vitest: by bin/rapport.mjs (tsx registered in code) and by
 * `node --import tsx`. Each case runs a real child process and leaves the extractor
 * unclosed, to show an idle pool does not keep the process alive.
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

async function runNode(nodeArgs: string[], preamble = ''): Promise<string> {
  const args = [...nodeArgs, '--input-type=module', '-e', preamble + script];
  const { stdout } = await run(process.execPath, args, { cwd: fileURLToPath(root), timeout: 30_000 });
  return stdout.trim();
}

describe('PDF worker outside vitest', () => {
  it('works when tsx is registered in code, as bin/rapport.mjs does', async () => {
    const preamble = 'import { register } from \'tsx/esm/api\'; register();';
    expect(await runNode([], preamble)).toBe('{"ok":true,"pages":2}');
  });

  it('works under node --import tsx', async () => {
    expect(await runNode(['--import', 'tsx'])).toBe('{"ok":true,"pages":2}');
  });
});
