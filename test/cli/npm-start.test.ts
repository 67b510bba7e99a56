import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnvironment, type CliEnvironment } from '../helpers/cli-env.ts';
import { startServiceProcess, type ServiceProcess } from '../helpers/process.ts';

let cli: CliEnvironment;
const running: ServiceProcess[] = [];

beforeAll(async () => {
  cli = await cliEnvironment('npm-start');
});
afterAll(async () => {
  for (const service of running) await service.stop();
  await cli.cleanup();
});

/** Whether a process id is still alive (signal 0 only checks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pids of a process's children, from ps (Linux, where the service runs). */
function childrenOf(pid: number): number[] {
  const out = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).trim();
  return out === '' ? [] : out.split(/\s+/).map(Number);
}

async function waitUntil(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

describe('npm start', () => {
  it('stops the service when the npm process gets SIGTERM, freeing the data directory for the next start', async () => {
    const first = await startServiceProcess(cli.env, [], 'npm');
    running.push(first);
    const npmPid = first.child.pid ?? 0;
    const servicePids = childrenOf(npmPid);
    expect(servicePids.length).toBeGreaterThan(0);

    expect(await first.stop()).not.toBeNull();
    // The service itself, not just npm, is gone.
    expect(await waitUntil(() => servicePids.every((pid) => !alive(pid)), 20_000)).toBe(true);
    expect(first.logs()).toMatch(/Rapport stopped/);
    if (!process.env.DATABASE_URL) expect(existsSync(path.join(cli.dataDir, 'rapport.lock'))).toBe(false);

    const second = await startServiceProcess(cli.env, [], 'npm');
    running.push(second);
    expect((await fetch(`${second.baseUrl}/healthz`)).status).toBe(200);
    await second.stop();
  }, 240_000);
});
