import { spawn } from 'node:child_process';
import { request } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartFile, textPdf } from '../fixtures/pdf.ts';
import { OUTGOING_TEXT } from '../fixtures/texts.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { runCliInProcess } from '../helpers/in-process-cli.ts';
import { freePort, NODE_FLAGS, REPO_ROOT, runCli, startServiceProcess, type ServiceProcess } from '../helpers/process.ts';
import { HAVE_REDIS, startRedis, type RedisServer } from '../helpers/redis.ts';

/** GET on a connection of its own (no keep-alive pool), so the cluster can hand it to either process. */
function statusOnNewConnection(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { connection: 'close' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Whether `service` answers an unsigned request with 401 rather than shedding it, within 30 s. */
async function answersRequests(service: ServiceProcess): Promise<boolean> {
  for (let tries = 0; tries < 60; tries += 1) {
    if ((await fetch(`${service.baseUrl}/v1/usage`)).status === 401) return true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}

// Several API processes share a PostgreSQL server (the embedded database admits one process) and a Redis.
const onPostgres = Boolean(process.env.DATABASE_URL);

describe.skipIf(!onPostgres || !HAVE_REDIS)('two API processes and a worker on one PostgreSQL and one Redis', () => {
  let testDb: TestDb;
  let redis: RedisServer;
  let one: ServiceProcess;
  let two: ServiceProcess;
  let env: Record<string, string>;
  const worker = () => spawn(process.execPath, [...NODE_FLAGS, path.join(REPO_ROOT, 'bin/rapport.mjs'), 'worker'], { env: { ...process.env, ...env }, stdio: 'ignore' });

  beforeAll(async () => {
    testDb = await createTestDb();
    await testDb.db.close();
    redis = await startRedis();
    env = { DATABASE_URL: testDb.url ?? '', REDIS_URL: redis.url, RAPPORT_IN_PROCESS_WORKER: 'false', RAPPORT_DEMO_DATA: 'false', LOG_LEVEL: 'info' };
    [one, two] = await Promise.all([startServiceProcess(env), startServiceProcess(env)]);
    // A process that has just started on a loaded machine may shed requests (503, its event loop
    // still lagging from the start: src/http/common/load-shedding.ts), which is the service doing
    // its job; the tests count answers, so they begin once both answer a request (401 unsigned).
    for (const service of [one, two]) expect(await answersRequests(service)).toBe(true);
  }, 180_000);
  afterAll(async () => {
    await Promise.allSettled([one?.stop(), two?.stop()]);
    await redis?.stop();
    await testDb?.close().catch(() => undefined);
  });

  // In this process (the same \`main\`, on the same database): what is tested is the API processes
  // and the worker; a \`rapport\` process for each token would cost ~2–3 s of CPU.
  const createToken = async (args: string[]) =>
    JSON.parse((await runCliInProcess(['tokens', 'create', '--kind', 'enterprise', '--name', 'scale', '--json', ...args], env)).stdout) as { id: string; token: string };

  it('holds a 3/min limit across both processes', async () => {
    const { token } = await createToken(['--rate-limit', '3/min']);
    const headers = { authorization: `Bearer ${token}` };
    const statuses: number[] = [];
    for (const service of [one, two, one, two, one]) statuses.push((await fetch(`${service.baseUrl}/v1/usage`, { headers })).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  }, 60_000);

  it('refuses a revoked token in both within a second', async () => {
    const { id, token } = await createToken([]);
    const headers = { authorization: `Bearer ${token}` };
    for (const service of [one, two]) expect((await fetch(`${service.baseUrl}/v1/usage`, { headers })).status).toBe(200);
    expect((await runCliInProcess(['tokens', 'revoke', id], env)).code).toBe(0);
    await new Promise((r) => setTimeout(r, 1100));
    for (const service of [one, two]) expect((await fetch(`${service.baseUrl}/v1/usage`, { headers })).status).toBe(401);
  }, 60_000);

  it('has a PDF uploaded to one finished by the worker and read from the other', async () => {
    const { token } = await createToken([]);
    const headers = { authorization: `Bearer ${token}` };
    const body = await multipartFile('file', await textPdf(OUTGOING_TEXT));
    const upload = await fetch(`${one.baseUrl}/v1/analysis/pdf`, { method: 'POST', headers: { ...headers, 'content-type': body.contentType }, body: body.payload });
    expect(upload.status).toBe(200);
    const { id } = ((await upload.json()) as { data: { id: string } }).data;
    expect((await fetch(`${two.baseUrl}/v1/analysis/${id}`, { headers })).status).toBe(202);

    const child = worker();
    try {
      let response = await fetch(`${two.baseUrl}/v1/analysis/${id}`, { headers });
      for (let i = 0; i < 150 && response.status === 202; i += 1) {
        await new Promise((r) => setTimeout(r, 200));
        response = await fetch(`${two.baseUrl}/v1/analysis/${id}`, { headers });
      }
      expect(response.status).toBe(200);
      const result = (await response.json()) as { data: { personality: { disc_type: string } } };
      expect(result.data.personality.disc_type).toMatch(/^[DISC][disc]?$|^(DI|IS|SC|CD)$/);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }, 120_000);
});

describe.skipIf(!onPostgres)('`rapport serve --processes 2`', () => {
  it('runs two API processes on one port, answers /metrics with their sum, and stops them all on SIGTERM', async () => {
    const testDb = await createTestDb();
    await testDb.db.close();
    const metricsToken = 'scrape-token-of-this-test';
    const metricsPort = await freePort();
    const opsUrl = `http://127.0.0.1:${metricsPort}`;
    const service = await startServiceProcess(
      { DATABASE_URL: testDb.url ?? '', RAPPORT_DEMO_DATA: 'false', LOG_LEVEL: 'info', RAPPORT_METRICS_TOKEN: metricsToken, RAPPORT_METRICS_PORT: String(metricsPort) },
      ['--processes', '2'],
    );
    try {
      let listening: number[] = [];
      for (let i = 0; i < 100; i += 1) {
        listening = [...service.logs().matchAll(/"pid":(\d+)[^\n]*"msg":"Rapport is listening"/g)].map((m) => Number(m[1]));
        if (listening.length >= 2) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(new Set(listening).size).toBe(2);
      expect((await fetch(`${service.baseUrl}/healthz`)).status).toBe(200);

      // Twenty calls, each on a connection of its own: the primary hands connections to the two
      // processes in turn, so each counts about half. Every scrape, whichever process answers it,
      // sees all twenty and both processes.
      for (let i = 0; i < 20; i += 1) expect(await statusOnNewConnection(`${service.baseUrl}/v1/usage`)).toBe(401);
      for (let i = 0; i < 4; i += 1) {
        const scrape = await fetch(`${service.baseUrl}/metrics`, { headers: { authorization: `Bearer ${metricsToken}`, connection: 'close' } });
        expect(scrape.status).toBe(200);
        const text = await scrape.text();
        expect(text).toMatch(/^rapport_api_processes 2$/m);
        const usage = text.split('\n').filter((line) => line.startsWith('rapport_http_requests_total{') && line.includes('route="/v1/usage"') && line.includes('status="401"'));
        expect(usage).toHaveLength(1);
        expect(Number(usage[0]?.split(' ').pop())).toBe(20);
      }

      // RAPPORT_METRICS_PORT: served by the primary for both processes (src/monitoring/cluster-vitals.ts).
      const health = await fetch(`${opsUrl}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok', database: 'postgres' });
      expect((await fetch(`${opsUrl}/v1/usage`)).status).toBe(404);
      const scrape = await (await fetch(`${opsUrl}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
      expect(scrape).toMatch(/^rapport_api_processes 2$/m);
      // The primary's own requests are counted too, beside the API processes'.
      expect(scrape).toContain('rapport_http_requests_total{group="ops",route="unmatched",method="GET",status="404"} 1');
      expect(scrape).toContain('rapport_http_request_duration_seconds_count{group="ops",route="unmatched",method="GET"} 1');
      // One API process stopped (SIGSTOP: alive, but its event loop runs no more): the service is
      // not healthy, and says why; running again, it is.
      const [stopped] = listening;
      process.kill(stopped ?? 0, 'SIGSTOP');
      try {
        let answer: { status: number; body: string } = { status: 0, body: '' };
        for (let i = 0; i < 50 && answer.status !== 503; i += 1) {
          await new Promise((r) => setTimeout(r, 100));
          const response = await fetch(`${opsUrl}/healthz`);
          answer = { status: response.status, body: await response.text() };
        }
        expect(answer.status).toBe(503);
        expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'unavailable', message: expect.stringMatching(/event loop has not turned for \d+\.\d s/) } });
      } finally {
        process.kill(stopped ?? 0, 'SIGCONT');
      }
      let healthy = 0;
      for (let i = 0; i < 50 && healthy !== 200; i += 1) {
        await new Promise((r) => setTimeout(r, 100));
        healthy = (await fetch(`${opsUrl}/healthz`)).status;
      }
      expect(healthy).toBe(200);
      expect(await service.stop()).toBe(0);
      for (const pid of listening) expect(() => process.kill(pid, 0)).toThrow();
      await expect(fetch(`${opsUrl}/healthz`)).rejects.toThrow();
    } finally {
      await service.stop();
      await testDb.close().catch(() => undefined);
    }
  }, 120_000);

  it('stops, saying why, when its API processes cannot start (Redis unreachable), instead of waiting', async () => {
    const testDb = await createTestDb();
    await testDb.db.close();
    try {
      const env = { DATABASE_URL: testDb.url ?? '', REDIS_URL: 'redis://127.0.0.1:1', RAPPORT_DEMO_DATA: 'false', PORT: '0', CONNECT_PORT: '0' };
      const result = await runCli(['serve', '--processes', '2'], env);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('(REDIS_URL) is not reachable');
    } finally {
      await testDb.close().catch(() => undefined);
    }
  }, 60_000);

  it('refuses more than one process on the embedded database', async () => {
    const result = await runCli(['serve', '--processes', '2'], { DATABASE_URL: '', RAPPORT_DATA_DIR: path.join(REPO_ROOT, '.tmp', 'never-created') });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Several API processes share a PostgreSQL server: set DATABASE_URL.');
  });
});
