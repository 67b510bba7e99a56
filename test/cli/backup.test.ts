import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnvironment, type CliEnvironment } from '../helpers/cli-env.ts';
import { runCliInProcess } from '../helpers/in-process-cli.ts';
import { REPO_ROOT, runCli, startServiceProcess, type ServiceProcess } from '../helpers/process.ts';

const DEMO_PEOPLE = path.join(REPO_ROOT, 'src/people/demo/people.jsonl');
const PERSON = 'marisol.quintero@example.com';

let cli: CliEnvironment;
let env: Record<string, string>;
const running: ServiceProcess[] = [];

beforeAll(async () => {
  cli = await cliEnvironment('backup');
  ({ env } = cli);
});
afterAll(async () => {
  for (const service of running) await service.stop();
  await cli.cleanup();
});

async function start(environment: Record<string, string>): Promise<ServiceProcess> {
  const service = await startServiceProcess(environment);
  running.push(service);
  return service;
}

async function calls(service: ServiceProcess, secret: string): Promise<number> {
  const response = await fetch(`${service.baseUrl}/v1/usage`, { headers: { authorization: `Bearer ${secret}` } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { calls_this_month: number } }).data.calls_this_month;
}

async function profile(service: ServiceProcess, secret: string, email: string): Promise<{ status: number; body: { data: { name?: string; personality?: unknown } | null } }> {
  const response = await fetch(`${service.baseUrl}/v1/profiles?email=${encodeURIComponent(email)}`, { headers: { authorization: `Bearer ${secret}` } });
  return { status: response.status, body: (await response.json()) as { data: { name?: string } | null } };
}

interface TokenRow {
  id: string;
  name: string;
}

async function tokenIds(environment: Record<string, string>): Promise<string[]> {
  const list = await runCliInProcess(['tokens', 'list', '--json'], environment);
  expect(list.code).toBe(0);
  return (JSON.parse(list.stdout) as TokenRow[]).map((t) => t.id).sort();
}

describe.skipIf(Boolean(process.env.DATABASE_URL))('db backup and restore (embedded database)', () => {
  it('backs up a running service and restores into a fresh data directory with the same people, tokens and usage', async () => {
    const created = await runCliInProcess(['tokens', 'create', '--kind', 'enterprise', '--name', 'Acme', '--json'], env);
    expect(created.code).toBe(0);
    const enterprise = JSON.parse(created.stdout) as { id: string; token: string };
    const second = await runCliInProcess(['tokens', 'create', '--kind', 'assessment', '--name', 'Free', '--json'], env);
    expect(second.code).toBe(0);
    const imported = await runCliInProcess(['import', DEMO_PEOPLE, '--quiet', '--json'], env);
    expect(imported.code).toBe(0);
    const people = (JSON.parse(imported.stdout) as { inserted: number }).inserted;
    expect(people).toBeGreaterThan(10);

    const service = await start(env);
    for (let k = 0; k < 3; k++) await calls(service, enterprise.token);
    const before = await profile(service, enterprise.token, PERSON);
    expect(before.status).toBe(200);
    const tokensBefore = await tokenIds(env);
    expect(tokensBefore).toHaveLength(2);
    // 3 usage calls + 1 profile lookup, still in the service's memory (flushed each second):
    // the backup flushes them first.
    const file = path.join(cli.dir, 'rapport.backup');
    const backup = await runCliInProcess(['db', 'backup', file, '--json'], env);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    const summary = JSON.parse(backup.stdout) as { file: string; bytes: number; people: number; tokens: number };
    expect(summary).toMatchObject({ file, people, tokens: 2 });
    expect(statSync(file).size).toBe(summary.bytes);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(cli.dir).filter((name) => name.includes('.partial-'))).toEqual([]);

    // Not over an existing file without --force; never while the service holds the directory.
    const again = await runCliInProcess(['db', 'backup', file], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists.*--force/);
    // The lock between two processes: the service's and this one (a restore in a process of its
    // own is test/db/private-files.test.ts's).
    const busy = await runCliInProcess(['db', 'restore', file, '--force'], env);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toMatch(/is using .* Stop it before restoring/);

    // Calls after the backup are not in it.
    await calls(service, enterprise.token);
    expect(await service.stop()).toBe(0);

    const fresh = { ...env, RAPPORT_DATA_DIR: path.join(cli.dir, 'restored') };
    const restored = await runCliInProcess(['db', 'restore', file], fresh);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(new RegExp(`Restored ${people} people, 2 tokens from .*rapport\\.backup into .*restored`));
    expect(readdirSync(path.join(cli.dir, 'restored')).sort()).toEqual(['pgdata']);

    const refused = await runCliInProcess(['db', 'restore', file], fresh);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/already holds a database\. Use --force/);
    const forced = await runCliInProcess(['db', 'restore', file, '--force', '--json'], fresh);
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.stdout)).toMatchObject({ replaced: true, people, tokens: 2 });

    const restoredService = await start(fresh);
    expect(await tokenIds(fresh)).toEqual(tokensBefore);
    // 4 calls were in the backup; this one is the 5th.
    expect(await calls(restoredService, enterprise.token)).toBe(5);
    const after = await profile(restoredService, enterprise.token, PERSON);
    expect(after.status).toBe(200);
    // The same profile; only the links differ, by the port each service ran on.
    const unlinked = (data: unknown, base: string): unknown => JSON.parse(JSON.stringify(data).replaceAll(base, 'BASE'));
    expect(unlinked(after.body.data, restoredService.baseUrl)).toEqual(unlinked(before.body.data, service.baseUrl));
    expect(await restoredService.stop()).toBe(0);
    expect(restoredService.logs()).not.toContain(enterprise.token);
  }, 420_000);

  it('refuses a file that is not a backup, and leaves the data directory as it was', async () => {
    const junk = path.join(cli.dir, 'junk.backup');
    writeFileSync(junk, 'this is not a database');
    const target = { ...env, RAPPORT_DATA_DIR: path.join(cli.dir, 'junk-target') };
    const result = await runCliInProcess(['db', 'restore', junk], target);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/is not a Rapport backup/);
    expect(existsSync(path.join(cli.dir, 'junk-target', 'pgdata'))).toBe(false);
    const missing = await runCliInProcess(['db', 'restore', path.join(cli.dir, 'nope.backup')], target);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/Cannot read .*nope\.backup: no such file/);
  }, 60_000);
});

describe.skipIf(!process.env.DATABASE_URL)('db backup and restore on PostgreSQL', () => {
  it('point to pg_dump and pg_restore', async () => {
    const backup = await runCli(['db', 'backup', path.join(cli.dir, 'x.backup')], env);
    expect(backup.code).toBe(1);
    expect(backup.stderr).toMatch(/pg_dump/);
    const restore = await runCli(['db', 'restore', path.join(cli.dir, 'x.backup')], env);
    expect(restore.code).toBe(1);
    expect(restore.stderr).toMatch(/pg_restore/);
  });
});
