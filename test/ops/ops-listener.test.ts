import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricsSourceOf, startOpsListener, type OpsListener } from '../../src/http/ops-listener/listener.ts';
import { healthVerdict, VitalSigns } from '../../src/monitoring/vital-signs.ts';
import { cliEnvironment } from '../helpers/cli-env.ts';
import { createTestDb } from '../helpers/db.ts';
import { freePort, startServiceProcess, waitUntil } from '../helpers/process.ts';
import { useTestService } from '../helpers/service.ts';

const METRICS_TOKEN = 'ops-metrics-token-0123456789';
/** Short limits, so a stall is seen within a test's second. */
const LIMITS = { loopSilenceMs: 500, databaseSilenceMs: 1500 };

interface ProbeResult {
  status: number;
  body: string;
  /** process.hrtime.bigint() when the answer arrived, as a string. */
  at: string;
}

/**
 * Health checks from a thread of their own, each on a new connection (as a load balancer or
 * the kubelet opens one), `delayMs` after it is asked: the test's thread may be blocked by then.
 */
const PROBER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const get = () => new Promise((resolve, reject) => {
  http.get(workerData.url, { agent: false }, (response) => {
    let body = '';
    response.on('data', (chunk) => (body += chunk));
    response.on('end', () => resolve({ status: response.statusCode, body, at: String(process.hrtime.bigint()) }));
  }).on('error', reject);
});
parentPort.on('message', ({ delays }) => {
  Promise.all(delays.map((ms) => new Promise((r) => setTimeout(r, ms)).then(get))).then((results) => parentPort.postMessage(results));
});
`;

async function probeWhileBlocked(url: string, delays: number[], blockMs: number): Promise<{ results: ProbeResult[]; unblockedAt: bigint }> {
  const prober = new Worker(PROBER, { eval: true, workerData: { url } });
  try {
    const results = new Promise<ProbeResult[]>((resolve) => prober.once('message', resolve));
    prober.postMessage({ delays: [0] });
    await results; // the prober's HTTP client is loaded
    const next = new Promise<ProbeResult[]>((resolve) => prober.once('message', resolve));
    prober.postMessage({ delays });
    // This thread is the service's main thread here: blocked, it runs no timer, accepts nothing, answers nothing.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, blockMs);
    const unblockedAt = process.hrtime.bigint();
    return { results: await next, unblockedAt };
  } finally {
    await prober.terminate();
  }
}

describe('the operations listener (RAPPORT_METRICS_PORT) in its own thread', () => {
  const service = useTestService({ RAPPORT_METRICS_TOKEN: METRICS_TOKEN });
  let vitals: VitalSigns;
  let listener: OpsListener;
  let url: string;
  beforeAll(async () => {
    vitals = await VitalSigns.start(() => service.ctx.db.ping());
    listener = await listen(vitals, service.ctx.db.kind);
    url = `http://127.0.0.1:${listener.port}`;
  });
  /** The operations listener of `signs`, with this service's configuration and metrics. */
  const listen = (signs: VitalSigns, databaseKind: 'embedded' | 'postgres', port = 0, limits = LIMITS) => {
    const { config, metrics, logger } = service.ctx;
    return startOpsListener({ config, port, databaseKind, vitals: signs.buffer, metrics: metricsSourceOf(metrics), logger, limits });
  };
  afterAll(async () => {
    await listener?.close();
    vitals?.close();
  });

  it('answers /healthz, /metrics behind its token, and anything else with the JSON error body', async () => {
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', database: service.ctx.db.kind });
    expect(health.headers.get('x-request-id')).toMatch(/^[\w-]{36}$/);

    const refused = await fetch(`${url}/metrics`);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { code: 'unauthorized' } });
    const scraped = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toMatch(/^text\/plain/);
    // Counted on the main thread's registry like every other request.
    expect(await scraped.text()).toContain('rapport_http_requests_total{group="ops",route="/healthz",method="GET",status="200"} 1');

    const missing = await fetch(`${url}/v1/usage`, { headers: { 'x-request-id': 'ops-test-1' } });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { code: 'not_found', message: expect.stringContaining('/healthz'), request_id: 'ops-test-1' } });

    // A path it serves, under another method: 405 naming the methods, as on the API ports.
    const posted = await fetch(`${url}/healthz`, { method: 'POST' });
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET, HEAD');
    expect(await posted.json()).toMatchObject({ error: { code: 'method_not_allowed', message: '/healthz takes GET, not POST.' } });
    const deleted = await fetch(`${url}/metrics`, { method: 'DELETE' });
    expect([deleted.status, deleted.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    const head = await fetch(`${url}/metrics`, { method: 'HEAD', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect([head.status, head.headers.get('content-type')?.startsWith('text/plain'), await head.text()]).toEqual([200, true, '']);
  });

  it('answers a 404 and a 405 with the API ports\' error body, headers and words', async () => {
    const onBoth = async (method: string, path: string) => {
      const headers = { 'x-request-id': `same-${method}` };
      const ops = await fetch(`${url}${path}`, { method, headers });
      const api = await service.base.inject({ method: method as 'POST', url: path, headers });
      return { ops: { status: ops.status, allow: ops.headers.get('allow'), nosniff: ops.headers.get('x-content-type-options'), body: (await ops.json()) as { error: { message: string } } }, api: { status: api.statusCode, allow: api.headers.allow ?? null, nosniff: api.headers['x-content-type-options'], body: api.json<{ error: { message: string } }>() } };
    };
    // A path both serve, under a method neither takes: the same answer, word for word.
    const wrongMethod = await onBoth('PUT', '/healthz');
    expect(wrongMethod.ops).toEqual(wrongMethod.api);
    expect(wrongMethod.ops).toMatchObject({ status: 405, allow: 'GET, HEAD', body: { error: { code: 'method_not_allowed', message: '/healthz takes GET, not PUT.', request_id: 'same-PUT' } } });
    // A path neither serves: the API's 404 body, plus what this listener does serve.
    const nowhere = await onBoth('GET', '/nothing-here');
    expect(nowhere.ops.status).toBe(404);
    expect(nowhere.ops.nosniff).toBe(nowhere.api.nosniff);
    expect(Object.keys(nowhere.ops.body.error)).toEqual(Object.keys(nowhere.api.body.error));
    expect(nowhere.ops.body).toMatchObject({ error: { code: 'not_found', request_id: 'same-GET' } });
    expect(nowhere.ops.body.error.message).toBe(`${nowhere.api.body.error.message} This listener serves GET /healthz and GET /metrics.`);
  });

  it('answers health checks while the main thread is blocked, and reports a stalled event loop', async () => {
    // 2.5 s blocked: a check 0.1 s in finds the loop silent for less than the limit (0.5 s), one
    // 1.5 s in for more; both with a second's room on a loaded machine.
    const { results, unblockedAt } = await probeWhileBlocked(`${url}/healthz`, [100, 1500], 2500);
    const [early, late] = results;
    expect(early?.status).toBe(200);
    expect(late?.status).toBe(503);
    expect(JSON.parse(late?.body ?? '{}').error.message).toMatch(/event loop has not turned for \d+\.\d s/);
    // Both answered before the main thread could have done anything.
    expect(BigInt(early?.at ?? 'x')).toBeLessThan(unblockedAt);
    expect(BigInt(late?.at ?? 'x')).toBeLessThan(unblockedAt);
    // Turning again: healthy from its next beat on (every 100 ms).
    let status = 0;
    const deadline = performance.now() + 5000;
    while (status !== 200 && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await fetch(`${url}/healthz`)).status;
    }
    expect(status).toBe(200);
  });

  it('reports a database that stopped answering', async () => {
    const testDb = await createTestDb();
    const signs = await VitalSigns.start(() => testDb.db.ping());
    const own = await listen(signs, testDb.db.kind);
    try {
      expect((await fetch(`http://127.0.0.1:${own.port}/healthz`)).status).toBe(200);
      await testDb.close();
      let answer: Response | undefined;
      for (let tries = 0; tries < 40; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        answer = await fetch(`http://127.0.0.1:${own.port}/healthz`);
        if (answer.status !== 200) break;
      }
      expect(answer?.status).toBe(503);
      expect(await answer?.json()).toMatchObject({ error: { code: 'unavailable', message: expect.stringMatching(/^The database has not answered for \d+\.\d s\.$/) } });
    } finally {
      await own.close();
      signs.close();
    }
  });

  it('refuses to start on a port in use, saying which', async () => {
    const attempt = listen(vitals, service.ctx.db.kind, listener.port);
    await expect(attempt).rejects.toThrow(`RAPPORT_METRICS_PORT: cannot listen on 127.0.0.1:${listener.port} (EADDRINUSE)`);
  });
});

describe('health verdicts', () => {
  it('is healthy within both limits, and names the first sign past its limit', () => {
    expect(healthVerdict({ loopSilentMs: 400, databaseSilentMs: 1400 }, LIMITS)).toBeNull();
    expect(healthVerdict({ loopSilentMs: 2500, databaseSilentMs: 9000 }, LIMITS)?.message).toBe("The service's event loop has not turned for 2.5 s: it is stalled.");
    expect(healthVerdict({ loopSilentMs: 10, databaseSilentMs: Number.POSITIVE_INFINITY }, LIMITS)?.message).toBe('The database has not answered since the service started.');
  });
});

describe('a service started with RAPPORT_METRICS_PORT', () => {
  it('serves /healthz and /metrics there, from the operations thread', async () => {
    const metricsPort = await freePort();
    // A migrated database of its own (on PostgreSQL too): what is tested here is the listener, not a first start.
    const cli = await cliEnvironment('ops');
    const service = await startServiceProcess({ ...cli.env, RAPPORT_METRICS_PORT: String(metricsPort) });
    try {
      const health = await fetch(`http://127.0.0.1:${metricsPort}/healthz`, { headers: { 'x-request-id': 'probe-42' } });
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok', database: process.env.DATABASE_URL ? 'postgres' : 'embedded' });
      expect((await fetch(`http://127.0.0.1:${metricsPort}/v1/usage`)).status).toBe(404);
      const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      // (/healthz on the API port counts in the same series, group "ops": the start-up probes did.)
      expect(metrics).toContain('rapport_http_requests_total{group="ops",route="unmatched",method="GET",status="404"} 1');
      // One log line per request, from the thread, with the request id.
      const logLine = /"request_id":"probe-42","method":"GET","url":"\/healthz","status":200/;
      await waitUntil(() => logLine.test(service.logs()), 5000);
      expect(service.logs()).toMatch(logLine);
    } finally {
      expect(await service.stop()).toBe(0);
      await cli.cleanup();
    }
  }, 120_000);
});
