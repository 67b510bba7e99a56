import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnvironment, type CliEnvironment } from '../helpers/cli-env.ts';
import { alive, childrenOf, startServiceProcess, waitUntil, type ServiceProcess } from '../helpers/process.ts';

let cli: CliEnvironment;
const running: ServiceProcess[] = [];

beforeAll(async () => {
  cli = await cliEnvironment('npm-start');
});
afterAll(async () => {
  for (const service of running) await service.stop();
  await cli.cleanup();
});

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

    // The next start only has to find the directory free: `node bin/rapport.mjs serve`, which
    // is what `npm start` runs, without a second npm process.
    const second = await startServiceProcess(cli.env);
    running.push(second);
    expect((await fetch(`${second.baseUrl}/healthz`)).status).toBe(200);
    await second.stop();
  }, 240_000);
});
