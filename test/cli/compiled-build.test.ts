/**
 * The compiled build runs on its own: a copy of dist/ with package.json, bin/ and assets/ but no
 * src/ (so nothing can fall back to tsx on the TypeScript sources) starts `rapport serve`,
 * answers group A, and analyses an uploaded PDF, which runs the compiled PDF worker thread (the
 * tsx boot file would look for worker.ts, absent there). dist/ is built by `npm install` /
 * `npm ci` (the `prepare` script); where it is missing or older than src/, this file builds it.
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartFile, textPdf } from '../fixtures/pdf.ts';
import { OUTGOING_TEXT } from '../fixtures/texts.ts';
import { freePort, NODE_FLAGS, REPO_ROOT } from '../helpers/process.ts';
import { embeddedTemplateFile } from '../../src/db/embedded-template.ts';
import { newestMtime } from '../../bin/newest-mtime.mjs';

function ensureBuilt(): void {
  const stamp = path.join(REPO_ROOT, 'dist/.build-stamp');
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= newestMtime(path.join(REPO_ROOT, 'src'))) return;
  const build = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts/build.mjs')], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
}

/** The environment without anything that points the service at a shared database or Redis. */
function isolatedEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'RAPPORT_RUNTIME', 'NODE_OPTIONS']) delete env[name];
  return { ...env, RAPPORT_RUNTIME: 'dist', ...extra };
}

/** The copy's compiled JavaScript outside dist/vendor/ (the bundles themselves). */
function compiledDistFiles(app: string): string[] {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(path.join(dir, entry.name)) : entry.name.endsWith('.js') ? [path.join(dir, entry.name)] : []));
  return files(path.join(app, 'dist')).filter((file) => !file.includes(`${path.sep}vendor${path.sep}`));
}

/** `node bin/rapport.mjs ARGS` in the copy `cwd`: its exit status and output. */
function runCompiled(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/rapport.mjs', ...args], { cwd, env, encoding: 'utf8' }, (error, stdout, stderr) =>
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe('the compiled build', () => {
  let app: string;
  let child: ChildProcess | undefined;
  let output = '';
  let baseUrl = '';
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    ensureBuilt();
    app = mkdtempSync(path.join(tmpdir(), 'rapport-dist-'));
    for (const part of ['dist', 'bin', 'assets', 'package.json']) cpSync(path.join(REPO_ROOT, part), path.join(app, part), { recursive: true });
    symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(app, 'node_modules'), 'dir');
    expect(existsSync(path.join(app, 'src'))).toBe(false);
    // bin/rapport.mjs runs the build's bundle of the CLI (scripts/bundle-main.mjs), not dist/'s
    // own cli/main.js: without that file, everything below runs from the bundle, which must find
    // its data files, the migrations and the worker threads' entries in this moved copy.
    rmSync(path.join(app, 'dist', 'cli', 'main.js'));

    const port = await freePort();
    env = isolatedEnv({ HOST: '127.0.0.1', PORT: String(port), CONNECT_PORT: String(await freePort()), RAPPORT_DATA_DIR: path.join(app, 'data'), RAPPORT_DEMO_DATA: 'false' });
    // With the tests' V8 flags (NODE_FLAGS: the embedded database's WebAssembly compiled once,
    // by the baseline compiler), as every other service a test starts.
    child = spawn(process.execPath, [...NODE_FLAGS, 'bin/rapport.mjs', 'serve'], { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    baseUrl = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`service exited early:\n${output}`);
      const up = await fetch(`${baseUrl}/healthz`).then((r) => r.ok, () => false);
      if (up && output.includes('Rapport is listening')) break;
      if (Date.now() > deadline) throw new Error(`service did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 400_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    if (app) rmSync(app, { recursive: true, force: true });
  });

  it('serves group A and finishes a PDF analysis in the compiled worker thread', async () => {
    expect(await (await fetch(`${baseUrl}/healthz`)).json()).toMatchObject({ status: 'ok' });

    // The CLI from the same copy, through the running service's admin socket.
    // Not spawnSync: while a blocked event loop waits for the command (over 5 s on a loaded
    // machine), the service closes the idle keep-alive connection of the /healthz above, and
    // the next fetch would reuse it before this process had read the close ("other side closed").
    const created = await runCompiled(['tokens', 'create', '--kind', 'enterprise', '--name', 'dist', '--json'], env, app);
    expect(created.status, created.stderr).toBe(0);
    const { token } = JSON.parse(created.stdout) as { token: string };
    const headers = { authorization: `Bearer ${token}` };

    const usage = await fetch(`${baseUrl}/v1/usage`, { headers });
    expect(usage.status).toBe(200);

    const body = await multipartFile('file', await textPdf(OUTGOING_TEXT));
    const upload = await fetch(`${baseUrl}/v1/analysis/pdf`, { method: 'POST', headers: { ...headers, 'content-type': body.contentType }, body: body.payload });
    expect(upload.status).toBe(200);
    const { id } = ((await upload.json()) as { data: { id: string } }).data;
    let result = await fetch(`${baseUrl}/v1/analysis/${id}`, { headers });
    for (let i = 0; i < 300 && result.status === 202; i += 1) {
      await new Promise((r) => setTimeout(r, 200));
      result = await fetch(`${baseUrl}/v1/analysis/${id}`, { headers });
    }
    expect(result.status, output).toBe(200);
    expect(((await result.json()) as { data: unknown }).data).toMatchObject({ id, status: 'complete', personality: { disc_type: expect.any(String) } });
    expect(output).not.toMatch(/worker\.ts|tsx/);
  }, 120_000);

  it('carries the migrated empty database a new data directory starts from (no initdb at a first start), made for the installed PGlite', () => {
    const templates = readdirSync(path.join(app, 'dist', 'db')).filter((name) => /^pgdata-template-.+\.tar\.gz$/.test(name));
    expect(templates).toEqual([path.basename(embeddedTemplateFile())]);
    // The service above started on a new data directory: its database is there.
    expect(existsSync(path.join(app, 'data', 'pgdata', 'PG_VERSION'))).toBe(true);
  });

  it('loads TypeBox from its bundle in dist/vendor/, never from the package (~680 modules a process)', () => {
    const compiled = compiledDistFiles(app);
    const bare = compiled.filter((file) => /\b(from|import)\s*\(?\s*["']typebox(\/[\w-]+)*["']/.test(readFileSync(file, 'utf8')));
    expect(bare.map((file) => path.relative(app, file))).toEqual([]);
    const vendored = compiled.filter((file) => /from ["'](\.\.?\/)+vendor\/typebox(-[\w-]+)?\.js["']/.test(readFileSync(file, 'utf8')));
    expect(vendored.map((file) => path.relative(app, file))).toEqual(expect.arrayContaining(['dist/config-schema.js', 'dist/operator/verbs.js']));
  });

  it('loads @fastify/swagger and prom-client from their bundles in dist/vendor/ (~200 files a start), never from the packages', () => {
    const compiled = compiledDistFiles(app);
    const bare = compiled.filter((file) => /\b(from|import)\s*\(?\s*["'](@fastify\/swagger|prom-client)(\/[\w./-]*)?["']/.test(readFileSync(file, 'utf8')));
    expect(bare.map((file) => path.relative(app, file))).toEqual([]);
    const importing = (bundle: string) => compiled.filter((file) => readFileSync(file, 'utf8').includes(`vendor/${bundle}.js'`)).map((file) => path.relative(app, file));
    expect(importing('fastify-swagger')).toEqual(['dist/http/common/openapi.js']);
    expect(importing('prom-client')).toEqual(expect.arrayContaining(['dist/monitoring/metrics.js', 'dist/monitoring/request-series.js', 'dist/cli/cluster.js']));
  });

  it('leaves a current dist/ alone when `prepare` runs again (npx runs it beside a running service)', () => {
    const stamp = path.join(REPO_ROOT, 'dist/.build-stamp');
    const before = statSync(stamp).mtimeMs;
    const again = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts/build.mjs')], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      env: { ...process.env, npm_lifecycle_event: 'prepare' },
    });
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('dist/ is up to date with src/');
    expect(statSync(stamp).mtimeMs).toBe(before);
  });
});
