import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartFile, textPdf } from '../fixtures/pdf.ts';
import { OUTGOING_TEXT } from '../fixtures/texts.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { alive, childrenOf, NODE_FLAGS, REPO_ROOT, runCli, startServiceProcess, waitUntil, type ServiceProcess } from '../helpers/process.ts';

// Separate worker processes share a PostgreSQL server; the embedded database admits one process.
const onPostgres = Boolean(process.env.DATABASE_URL);

describe.skipIf(!onPostgres)('a separate `rapport worker` process', () => {
  let testDb: TestDb;
  let service: ServiceProcess;
  let env: Record<string, string>;
  beforeAll(async () => {
    testDb = await createTestDb();
    await testDb.db.close();
    env = { DATABASE_URL: testDb.url ?? '', RAPPORT_IN_PROCESS_WORKER: 'false', RAPPORT_DEMO_DATA: 'false', LOG_LEVEL: 'info' };
    service = await startServiceProcess(env);
  });
  afterAll(async () => {
    await service?.stop();
    await testDb?.close().catch(() => undefined);
  });

  it('finishes PDF analyses and Connect searches that the API process only queued', async () => {
    const token = (JSON.parse((await runCli(['tokens', 'create', '--kind', 'enterprise', '--name', 'w', '--json'], env)).stdout) as { token: string }).token;
    const headers = { authorization: `Bearer ${token}` };
    const body = await multipartFile('file', await textPdf(OUTGOING_TEXT));
    const upload = await fetch(`${service.baseUrl}/v1/analysis/pdf`, { method: 'POST', headers: { ...headers, 'content-type': body.contentType }, body: body.payload });
    const { id } = ((await upload.json()) as { data: { id: string } }).data;
    const org = { 'x-org-token': (JSON.parse((await runCli(['tokens', 'create', '--kind', 'connect', '--name', 'w', '--json'], env)).stdout) as { token: string }).token };
    const searched = await fetch(`${service.connectUrl}/v1/profiles/async`, {
      method: 'POST',
      headers: { ...org, 'content-type': 'application/json' },
      body: JSON.stringify({ text_sample: OUTGOING_TEXT, text_type: 'email' }),
    });
    const requestId = ((await searched.json()) as { request_id: string }).request_id;
    const searchStatus = async () => ((await (await fetch(`${service.connectUrl}/v1/profiles/results/${requestId}`, { headers: org })).json()) as { status: string }).status;

    await new Promise((r) => setTimeout(r, 1500));
    expect((await fetch(`${service.baseUrl}/v1/analysis/${id}`, { headers })).status).toBe(202);
    expect(await searchStatus()).toBe('processing');

    const worker = spawn(process.execPath, [...NODE_FLAGS, path.join(REPO_ROOT, 'bin/rapport.mjs'), 'worker'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'ignore'] });
    let output = '';
    worker.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    let stoppedCleanly = false;
    try {
      let status = 202;
      for (let i = 0; i < 150 && status === 202; i += 1) {
        await new Promise((r) => setTimeout(r, 200));
        status = (await fetch(`${service.baseUrl}/v1/analysis/${id}`, { headers })).status;
      }
      expect(status).toBe(200);
      // A search by text sample alone: answered from the text, whoever is stored.
      let search = 'processing';
      for (let i = 0; i < 150 && search === 'processing'; i += 1) {
        search = await searchStatus();
        if (search === 'processing') await new Promise((r) => setTimeout(r, 200));
      }
      expect(search).toBe('complete');
    } finally {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.kill('SIGTERM');
      stoppedCleanly = (await exited) === 0;
    }
    expect(stoppedCleanly).toBe(true);
    expect(output).toMatch(/"signal":"SIGTERM"[^\n]*worker stopping/);
    expect(output).toMatch(/Rapport worker stopped/);
  }, 120_000);

  it('stops when `npx rapport worker` is stopped, even though npx does not pass the signal on', async () => {
    // npx (npm exec) runs `sh -c rapport worker`, which runs node: a process manager signals
    // npx, sh dies without passing it on, and node is left. The same chain without npm itself
    // (npx would first install this checkout into its cache and run `prepare`): a shell that
    // does not exec its command, with the variable npm sets for what it launches.
    const bin = path.join(REPO_ROOT, 'bin/rapport.mjs');
    const npx = spawn('sh', ['-c', `"${process.execPath}" ${NODE_FLAGS.join(' ')} "${bin}" worker; true`], {
      env: { ...process.env, ...env, npm_lifecycle_event: 'npx' },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let output = '';
    npx.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // The worker is the shell's child (the shell does not exec it).
    let workerPid = 0;
    await waitUntil(() => (workerPid = childrenOf(npx.pid ?? 0)[0] ?? 0) > 0, 30_000);
    expect(workerPid).toBeGreaterThan(0);
    // Up and running, so the test is about the launcher going, not about a start cut short.
    expect(await waitUntil(() => output.includes('Rapport worker is running'), 30_000), output).toBe(true);
    npx.kill('SIGTERM');
    await waitUntil(() => !alive(workerPid), 10_000);
    expect(alive(workerPid)).toBe(false);
  }, 60_000);
});
