import { describe, expect, it } from 'vitest';
import { useTestService } from '../helpers/service.ts';
import { inOneRateWindow } from '../helpers/minute-window.ts';

const METRICS_TOKEN = 'metrics-token-0123456789';

describe('Prometheus metrics', () => {
  const service = useTestService({ RAPPORT_METRICS_TOKEN: METRICS_TOKEN });

  it('counts requests by group, route and status, 429 refusals, jobs and the process', async () => {
    const enterprise = await service.token('enterprise', { rateLimitPerMinute: 1 });
    const connect = await service.token('connect');
    const auth = { authorization: `Bearer ${enterprise.secret}` };
    await inOneRateWindow();
    expect((await service.base.inject({ method: 'GET', url: '/v1/usage', headers: auth })).statusCode).toBe(200);
    expect((await service.base.inject({ method: 'GET', url: '/v1/usage', headers: auth })).statusCode).toBe(429);
    expect((await service.base.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: 'Bearer nope' } })).statusCode).toBe(401);
    expect((await service.connect.inject({ method: 'GET', url: '/v1/usage', headers: { 'x-org-token': connect.secret } })).statusCode).toBe(200);
    await service.ctx.db.query("INSERT INTO jobs (id, kind, payload, status) VALUES ('job_m1', 'pdf_analysis', '{}', 'failed')");

    const response = await service.base.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    const text = response.body;
    expect(text).toContain('rapport_http_requests_total{group="enterprise",route="/v1/usage",method="GET",status="200"} 1');
    expect(text).toContain('rapport_http_requests_total{group="enterprise",route="/v1/usage",method="GET",status="429"} 1');
    expect(text).toContain('rapport_http_requests_total{group="enterprise",route="/v1/usage",method="GET",status="401"} 1');
    expect(text).toContain('rapport_http_requests_total{group="connect",route="/v1/usage",method="GET",status="200"} 1');
    expect(text).toContain('rapport_rate_limit_refusals_total{group="enterprise"} 1');
    // Series that had nothing to count yet read 0, not "no data".
    expect(text).toContain('rapport_rate_limit_refusals_total{group="connect"} 0');
    expect(text).toContain('rapport_load_shed_total{cause="event_loop_delay"} 0');
    expect(text).toContain('rapport_load_shed_total{cause="heap_used"} 0');
    // Every call observed (the +Inf bucket): which finite bucket a call lands in depends on how busy the machine is.
    expect(text).toMatch(/rapport_http_request_duration_seconds_bucket\{le="\+Inf",group="enterprise",route="\/v1\/usage",method="GET"\} 3/);
    expect(text).toMatch(/rapport_http_request_duration_seconds_count\{group="enterprise",route="\/v1\/usage",method="GET"\} 3/);
    expect(text).toContain('rapport_jobs{kind="pdf_analysis",status="failed"} 1');
    // Kinds and statuses with no job read 0, not "no data".
    expect(text).toContain('rapport_jobs{kind="pdf_analysis",status="queued"} 0');
    expect(text).toContain('rapport_jobs{kind="profile_search",status="running"} 0');
    expect(text).toMatch(/rapport_process_resident_memory_bytes \d+/);
    // One process here; `serve --processes N` sums over N (test/cli/scale-out.test.ts).
    expect(text).toMatch(/^rapport_api_processes 1$/m);
    // Tokens never become labels.
    expect(text).not.toContain(enterprise.secret);
  });

  it('needs the metrics token, and an API token is not one', async () => {
    const enterprise = await service.token('enterprise');
    for (const authorization of [undefined, `Bearer ${enterprise.secret}`, `Bearer ${METRICS_TOKEN}x`]) {
      const response = await service.base.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('unauthorized');
    }
  });

  it('is not on the Connect host', async () => {
    const response = await service.connect.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(response.statusCode).toBe(404);
  });
});
