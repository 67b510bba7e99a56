/**
 * What a `rapport` process loads before it does anything: the service's modules, and a CLI
 * verb's. Packages only some requests or settings need load on first use (src/pages/result-pdf.ts,
 * src/server.ts), so a start, and every test that starts the service, does not pay for them.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/process.ts';

/**
 * The npm packages loaded once `entry` (a path under src/) is imported, from the sources:
 * CommonJS ones from require's cache, ES modules from a resolve hook that reports every module
 * it resolves (nodemailer and csv-parse, say, ship both kinds).
 */
function packagesLoadedBy(entry: string): string[] {
  const hook = `
    let port;
    export function initialize(data) { port = data.port; }
    export async function resolve(specifier, context, next) {
      const resolved = await next(specifier, context);
      port.postMessage(resolved.url);
      return resolved;
    }
  `;
  const script = `
    import { createRequire, register } from 'node:module';
    import { MessageChannel } from 'node:worker_threads';
    const files = [];
    const { port1, port2 } = new MessageChannel();
    port1.on('message', (url) => files.push(url));
    register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)}, { data: { port: port2 }, transferList: [port2] });
    await import(${JSON.stringify(`./${entry}`)});
    // The hook's last messages arrive on a later turn.
    await new Promise((resolve) => setTimeout(resolve, 200));
    files.push(...Object.keys(createRequire(import.meta.url).cache));
    const names = new Set();
    for (const file of files) {
      const match = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(file);
      if (match) names.add(match[1]);
    }
    process.stdout.write(JSON.stringify([...names].sort()));
    process.exit(0);
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  return JSON.parse(out) as string[];
}

/**
 * Loaded only where a setting or a command needs them (src/shared/load-on-use.ts, src/db/open.ts):
 * SMTP_URL's mail, RAPPORT_LOG_FORMAT=pretty, DATABASE_URL's driver, REDIS_URL's shared limits, a CSV import, a progress bar
 * on a terminal, a PNG drawn in a worker thread.
 */
const LOADED_ON_USE = ['nodemailer', 'pino-pretty', 'pg', 'csv-parse', 'cli-progress', '@resvg/resvg-js', 'rate-limiter-flexible'];

describe('what a start loads', () => {
  it('the service loads neither pdf-lib (result PDFs) nor ioredis (REDIS_URL) until one is needed', () => {
    const loaded = packagesLoadedBy('src/server.ts');
    // The import worked: the web framework is there.
    expect(loaded).toContain('fastify');
    expect(loaded).not.toContain('pdf-lib');
    expect(loaded).not.toContain('@pdf-lib/fontkit');
    expect(loaded).not.toContain('ioredis');
    for (const name of LOADED_ON_USE) expect(loaded, name).not.toContain(name);
  }, 60_000);

  it('a CLI command loads none of the packages only some settings or commands use', () => {
    const loaded = packagesLoadedBy('src/cli/main.ts');
    expect(loaded).toContain('commander');
    for (const name of LOADED_ON_USE) expect(loaded, name).not.toContain(name);
  }, 60_000);

  it('the check sees an ES module loaded where one is (it would not pass by seeing nothing)', () => {
    const loaded = packagesLoadedBy('src/db/postgres.ts');
    expect(loaded).toContain('pg');
    expect(packagesLoadedBy('src/mail/mailer.ts')).not.toContain('nodemailer');
  }, 60_000);
});
