import { spawn } from 'node:child_process';
import { cpSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readLock } from '../../src/db/data-dir-lock.ts';
import { callAdminSocket, cliEnvironment, type CliEnvironment } from '../helpers/cli-env.ts';
import { runCliInProcess } from '../helpers/in-process-cli.ts';
import { freePort, NODE_FLAGS, REPO_ROOT, runCli, type ServiceProcess, startServiceProcess, withoutNewDatabaseNote } from '../helpers/process.ts';

let cli: CliEnvironment;
let dir: string;
let dataDir: string;
let env: Record<string, string>;
let service: ServiceProcess | null = null;

beforeAll(async () => {
  cli = await cliEnvironment('tokens-cli');
  ({ dir, dataDir, env } = cli);
});
afterAll(async () => {
  await service?.stop();
  await cli.cleanup();
});

interface Token {
  id: string;
  name: string;
  monthly_quota: number | null;
  rate_limit_per_minute: number | null;
}

/** `none` removes both limits of a token whose kind has defaults (assessment: 5000/month, 500/min). */
async function clearsLimits(label: string): Promise<void> {
  const created = await runCliInProcess(['tokens', 'create', '--kind', 'assessment', '--name', `Free ${label}`, '--monthly-quota', 'none', '--rate-limit', 'none'], env);
  expect(withoutNewDatabaseNote(created.stderr)).toBe('');
  expect(created.code).toBe(0);
  expect(created.stdout).toMatch(/quota none, rate none/);
  // Ids are base64url: letters, digits, "_" and "-".
  const id = /\(id (tok_[\w-]+);/.exec(created.stdout)?.[1] ?? '';
  expect(id).not.toBe('');

  const set = await runCliInProcess(['tokens', 'limits', id, '--monthly-quota', '1000', '--rate-limit', '20/min', '--json'], env);
  expect(set.stderr).toBe('');
  expect(JSON.parse(set.stdout)).toMatchObject({ id, monthly_quota: 1000, rate_limit_per_minute: 20 });

  const cleared = await runCliInProcess(['tokens', 'limits', id, '--monthly-quota', 'none', '--rate-limit', 'None', '--json'], env);
  expect(cleared.stderr).toBe('');
  expect(cleared.code).toBe(0);
  expect(JSON.parse(cleared.stdout)).toMatchObject({ id, monthly_quota: null, rate_limit_per_minute: null });
}

/** A limit over what the column holds is refused by the CLI, naming the option, before any database sees it. */
async function refusesHugeLimits(): Promise<void> {
  const quota = await runCliInProcess(['tokens', 'create', '--kind', 'enterprise', '--name', 'Huge', '--monthly-quota', '3000000000'], env);
  expect(quota.code).toBe(1);
  expect(quota.stderr).toMatch(/--monthly-quota/);
  expect(quota.stderr).toMatch(/at most 2147483647 calls per month/);
  expect(quota.stderr).not.toMatch(/out of range/);
  const rate = await runCliInProcess(['tokens', 'limits', 'tok_whatever', '--rate-limit', '2147483648/min'], env);
  expect(rate.code).toBe(1);
  expect(rate.stderr).toMatch(/--rate-limit/);
  expect(rate.stderr).toMatch(/at most 2147483647 calls per minute/);
}

/** Runs `rapport ARGS` with its standard output (and error) closed by the reader at once, like `| true`. */
function runWithClosedOutput(args: string[], closeStderr: boolean): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_FLAGS, path.join(REPO_ROOT, 'bin/rapport.mjs'), ...args], { env: { ...process.env, ...env }, cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.destroy();
    if (closeStderr) child.stderr.destroy();
    else child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal, stderr }));
  });
}

describe('tokens commands', () => {
  it('take none for no limit and refuse limits the database cannot hold, without and with the service running', async () => {
    await clearsLimits('offline');
    await refusesHugeLimits();

    service = await startServiceProcess(env);
    await clearsLimits('online');
    await refusesHugeLimits();
    const holder = readLock(dataDir);
    if (!process.env.DATABASE_URL) {
      // Through the admin socket, as any other client would send it: refused by the verb's schema.
      const socket = holder?.adminSocket ?? '';
      expect(socket).not.toBe('');
      const lines = await callAdminSocket(socket, 'tokens.create', { kind: 'enterprise', name: 'Huge', monthly_quota: 3_000_000_000 });
      expect(lines).toEqual([{ error: { code: 'bad_request', message: 'Invalid arguments for tokens.create: /monthly_quota must be <= 2147483647.' } }]);
    }
    expect(await service.stop()).toBe(0);
    const logs = service.logs();
    service = null;
    expect(logs).not.toMatch(/out of range/);
    expect(logs).not.toMatch(/admin command failed/);
  }, 240_000);

  it('refuse control characters in a token name, which would break the list', async () => {
    const result = await runCliInProcess(['tokens', 'create', '--kind', 'enterprise', '--name', 'line\nbreak'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^rapport: A token name cannot contain control characters/);
    const list = await runCliInProcess(['tokens', 'list', '--json'], env);
    const names = (JSON.parse(list.stdout) as Token[]).map((t) => t.name);
    expect(names).not.toContain('line\nbreak');
    expect(names).not.toContain('line');
  }, 60_000);

  it('end quietly with exit code 0 when the reader closes the pipe early', async () => {
    // Something to list, whichever tests ran before.
    expect((await runCliInProcess(['tokens', 'create', '--kind', 'connect', '--name', 'piped'], env)).code).toBe(0);
    const result = await runWithClosedOutput(['tokens', 'list'], false);
    expect(result.stderr).toBe('');
    expect(result).toMatchObject({ code: 0, signal: null });
    const both = await runWithClosedOutput(['tokens', 'list'], true);
    expect(both).toMatchObject({ code: 0, signal: null });
  }, 60_000);
});

describe('connection failures', () => {
  it('blame a HOST that does not resolve on HOST, not on the database', async () => {
    const port = await freePort();
    const connectPort = await freePort();
    // A migrated copy of its own: the start opens the database before it listens, and creating
    // one (~2 s of CPU) is not what this test is about.
    const dataDir = path.join(dir, 'host-data');
    if (!process.env.DATABASE_URL) cpSync(inject('embeddedDataDir'), dataDir, { recursive: true });
    const own = { ...env, RAPPORT_DATA_DIR: dataDir, HOST: '999.1.1.1', PORT: String(port), CONNECT_PORT: String(connectPort) };
    const result = await runCli(['serve'], own);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^rapport: Could not listen on HOST=999\\.1\\.1\\.1 port ${port}: getaddrinfo (ENOTFOUND|EAI_AGAIN) 999\\.1\\.1\\.1`));
    expect(result.stderr).not.toMatch(/DATABASE_URL/);
  }, 120_000);

  it('name DATABASE_URL when the database cannot be reached', async () => {
    const own = { RAPPORT_DATA_DIR: path.join(dir, 'unused'), DATABASE_URL: 'postgres://rapport@127.0.0.1:1/rapport' };
    const refused = await runCliInProcess(['tokens', 'list'], own);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^rapport: Could not connect to the database in DATABASE_URL: connect ECONNREFUSED 127\.0\.0\.1:1/);
    const unknown = await runCliInProcess(['tokens', 'list'], { ...own, DATABASE_URL: 'postgres://rapport@no-such-host.invalid/rapport' });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^rapport: Could not connect to the database in DATABASE_URL: getaddrinfo (ENOTFOUND|EAI_AGAIN) no-such-host\.invalid/);
  }, 60_000);
});
