import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnvironment, type CliEnvironment } from '../helpers/cli-env.ts';
import { runCliInProcess } from '../helpers/in-process-cli.ts';
import { runCli, type ServiceProcess, startServiceProcess, withoutNewDatabaseNote } from '../helpers/process.ts';

let cli: CliEnvironment;
let dataDir: string;
let env: Record<string, string>;
const running: ServiceProcess[] = [];

beforeAll(async () => {
  cli = await cliEnvironment('cli');
  ({ dataDir, env } = cli);
});
afterAll(async () => {
  for (const service of running) await service.stop();
  await cli.cleanup();
});

async function usage(service: ServiceProcess, secret: string) {
  const response = await fetch(`${service.baseUrl}/v1/usage`, { headers: { authorization: `Bearer ${secret}` } });
  return { status: response.status, body: (await response.json()) as { data: { calls_this_month: number } } };
}

describe('the CLI and the service together', () => {
  it('creates tokens with or without the service running, meters, stops cleanly and keeps everything', async () => {
    // The service is a process of its own; so is the command that finds it running and goes
    // through it. The others only print or store: they run in this process (the same `main`).
    const help = await runCliInProcess(['--help'], env);
    expect(help.stdout).toMatch(/tokens/);
    expect(help.stdout).toMatch(/serve/);

    const offline = await runCliInProcess(['tokens', 'create', '--kind', 'enterprise', '--name', 'Acme', '--json'], env);
    expect(withoutNewDatabaseNote(offline.stderr)).toBe('');
    const enterprise = JSON.parse(offline.stdout) as { id: string; kind: string; name: string; token: string };
    expect(Object.keys(enterprise).sort()).toEqual(['id', 'kind', 'name', 'token']);
    expect(enterprise).toMatchObject({ kind: 'enterprise', name: 'Acme' });

    let service = await startServiceProcess(env);
    running.push(service);
    expect((await usage(service, enterprise.token)).status).toBe(200);
    expect((await usage(service, enterprise.token)).body.data.calls_this_month).toBe(2);

    // With the service up, the CLI goes through it (embedded) or straight to the server (PostgreSQL).
    const online = await runCli(['tokens', 'create', '--kind', 'connect', '--name', 'Org', '--rate-limit', '3/min', '--json'], env);
    expect(online.code).toBe(0);
    const connect = JSON.parse(online.stdout) as { id: string; token: string };
    const list = await runCliInProcess(['tokens', 'list'], env);
    expect(list.stdout).toMatch(new RegExp(`${connect.id}\\s+connect\\s+Org\\s+rpc_`));
    expect(list.stdout).not.toContain(connect.token);

    const revoked = await runCliInProcess(['tokens', 'revoke', connect.id], env);
    expect(revoked.stdout).toMatch(/Revoked connect token "Org"/);
    const refused = await fetch(`${service.connectUrl}/v1/usage`, { headers: { 'x-org-token': connect.token } });
    expect(refused.status).toBe(401);

    expect(await service.stop()).toBe(0);
    if (!process.env.DATABASE_URL) expect(existsSync(path.join(dataDir, 'rapport.lock'))).toBe(false);
    const logs = service.logs();
    expect(logs).toMatch(/"msg":"request"/);
    expect(logs).not.toContain(enterprise.token);

    service = await startServiceProcess(env);
    running.push(service);
    const after = await usage(service, enterprise.token);
    expect(after.status).toBe(200);
    expect(after.body.data.calls_this_month).toBe(3);
    expect(await service.stop()).toBe(0);
  }, 240_000);

  it('fails fast on bad configuration, naming the variable', async () => {
    const result = await runCli(['serve'], { ...env, PORT: 'eighty' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Invalid configuration: PORT must be a port number/);
    expect(result.stderr).not.toMatch(/at .*\.ts:\d+/);
  });

  it('rejects an unknown token kind with a clear message', async () => {
    const result = await runCliInProcess(['tokens', 'create', '--kind', 'admin', '--name', 'x'], env);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/expected one of enterprise, assessment, connect/);
  });
});
