import { afterEach, describe, expect, it } from 'vitest';
import { OverloadMonitor } from '../../src/monitoring/overload.ts';
import { createTestService, type TestService } from '../helpers/service.ts';

describe('load shedding', () => {
  let service: TestService | undefined;
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  it('answers 503 with Retry-After while the heap is over the threshold, and /healthz still answers', async () => {
    service = await createTestService({ RAPPORT_SHED_HEAP_MB: '1' });
    const { secret } = await service.token('enterprise');
    // The monitor samples once a second.
    await new Promise((r) => setTimeout(r, 1300));
    const shed = await service.base.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: `Bearer ${secret}` } });
    expect(shed.statusCode).toBe(503);
    expect(shed.headers['retry-after']).toBe('5');
    expect(shed.json().error).toMatchObject({ code: 'unavailable', message: 'The service is overloaded; retry in 5 s.' });
    const connectShed = await service.connect.inject({ method: 'GET', url: '/v1/usage' });
    expect(connectShed.statusCode).toBe(503);
    for (const app of [service.base, service.connect]) {
      const health = await app.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(200);
    }
    const metrics = await service.ctx.metrics.text();
    expect(metrics).toMatch(/rapport_load_shed_total\{cause="heap_used"\} 2/);
  });

  it('serves normally under the default thresholds', async () => {
    service = await createTestService();
    const { secret } = await service.token('enterprise');
    await new Promise((r) => setTimeout(r, 1300));
    const response = await service.base.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: `Bearer ${secret}` } });
    expect(response.statusCode).toBe(200);
  });
});

describe('the overload monitor', () => {
  it('reads a saturated event loop from the median delay over two windows, not one long step', async () => {
    const monitor = new OverloadMonitor({ maxEventLoopDelayMs: 30, maxHeapUsedBytes: 0 }, 400);
    try {
      // One long synchronous step in an otherwise idle window: not overloaded.
      const until = Date.now() + 300;
      while (Date.now() < until);
      await new Promise((r) => setTimeout(r, 450));
      expect(monitor.cause()).toBeNull();
      // Every turn of the loop late by ~60 ms for two whole windows: overloaded.
      const end = Date.now() + 1300;
      while (Date.now() < end) {
        const busy = Date.now() + 60;
        while (Date.now() < busy);
        await new Promise((r) => setImmediate(r));
      }
      expect(monitor.cause()).toBe('event_loop_delay');
    } finally {
      monitor.close();
    }
  });
});
