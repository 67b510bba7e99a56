/**
 * What a `rapport` process loads before it does anything: the service's modules, and a CLI
 * verb's. Packages only some requests or settings need load on first use (src/pages/result-pdf.ts,
 * src/server.ts), so a start, and every test that starts the service, does not pay for them.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/process.ts';

/** The npm packages loaded (CommonJS and ES modules) once `entry` (a path under src/) is imported, from the sources. */
function packagesLoadedBy(entry: string): string[] {
  const script = `
    import { createRequire } from 'node:module';
    await import(${JSON.stringify(`./${entry}`)});
    const names = new Set();
    for (const file of Object.keys(createRequire(import.meta.url).cache)) {
      const match = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(file);
      if (match) names.add(match[1]);
    }
    process.stdout.write(JSON.stringify([...names].sort()));
    process.exit(0);
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  return JSON.parse(out) as string[];
}

describe('what a start loads', () => {
  it('the service loads neither pdf-lib (result PDFs) nor ioredis (REDIS_URL) until one is needed', () => {
    const loaded = packagesLoadedBy('src/server.ts');
    // The import worked: the web framework is there.
    expect(loaded).toContain('fastify');
    expect(loaded).not.toContain('pdf-lib');
    expect(loaded).not.toContain('@pdf-lib/fontkit');
    expect(loaded).not.toContain('ioredis');
  }, 60_000);
});
