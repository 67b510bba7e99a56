import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OUTGOING_TEXT } from '../fixtures/texts.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { createTestService, type TestService } from '../helpers/service.ts';
import { waitUntil } from '../helpers/process.ts';

/*
 * Webhooks through HTTP, end to end, with a real receiver on loopback (private addresses are
 * allowed here, as RAPPORT_WEBHOOK_ALLOW_PRIVATE lets an operator): registered with the API,
 * caused by a real search, sent by the service's own worker, verified with the Standard
 * Webhooks library. Short retry settings keep the retries within seconds.
 */
let service: TestService;
let org: { 'x-org-token': string };
const receivers: Receiver[] = [];

async function receiver(answer?: Receiver['answer']): Promise<Receiver> {
  const started = await startReceiver(answer);
  receivers.push(started);
  return started;
}

async function register(url: string, headers = org, body: Record<string, unknown> = {}) {
  const response = await service.connect.inject({ method: 'POST', url: '/v1/webhooks', headers, payload: { url, ...body } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; secret: string; events: string[] };
}

async function searchAsync(payload: Record<string, unknown> = { first_name: 'Nobody', last_name: 'Atall', text_sample: OUTGOING_TEXT, text_type: 'email' }) {
  const response = await service.connect.inject({ method: 'POST', url: '/v1/profiles/async', headers: org, payload });
  expect(response.statusCode).toBe(202);
  return response.json().request_id as string;
}

async function deliveries(endpointId: string) {
  const response = await service.connect.inject({ url: `/v1/webhooks/${endpointId}/deliveries`, headers: org });
  expect(response.statusCode).toBe(200);
  return response.json().data as Array<{ id: string; status: string; attempts: number; last_status: number | null; last_error: string | null; event_type: string }>;
}

/**
 * The endpoint's deliveries once none is pending: the receiver has its request before the
 * service has recorded the answer (a transaction after the attempt), which on a loaded machine
 * can take longer than any fixed wait.
 */
async function settledDeliveries(endpointId: string) {
  const deadline = Date.now() + 10_000;
  let list = await deliveries(endpointId);
  while (list.some((d) => d.status === 'pending') && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    list = await deliveries(endpointId);
  }
  return list;
}

async function endpoint(endpointId: string) {
  const list = (await service.connect.inject({ url: '/v1/webhooks', headers: org })).json().data as Array<{ id: string; disabled_at: string | null; disabled_reason: string | null }>;
  return list.find((e) => e.id === endpointId);
}

function verified(secret: string, got: { headers: Record<string, unknown>; body: string }) {
  const headers = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(got.headers[h])]));
  return new Webhook(secret).verify(got.body, headers) as { type: string; timestamp: string; data: Record<string, unknown> };
}

beforeAll(async () => {
  service = await createTestService({
    RAPPORT_WEBHOOK_ALLOW_PRIVATE: 'true',
    RAPPORT_WEBHOOK_TIMEOUT: '1',
    RAPPORT_WEBHOOK_FIRST_RETRY_MS: '200',
    RAPPORT_WEBHOOK_RETRY_FOR: '4',
  });
  org = { 'x-org-token': (await service.token('connect')).secret };
});
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});
afterAll(async () => {
  await service?.close();
});

describe('a finished Connect search', () => {
  it('is sent signed as Standard Webhooks says, and the library verifies it', async () => {
    const hook = await receiver();
    const created = await register(hook.url);
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.events).toEqual(['connect.search.finished']);
    const id = await searchAsync();
    const [got] = await hook.waitFor(1);
    if (!got) throw new Error('nothing received');
    expect(got.headers['content-type']).toBe('application/json');
    expect(String(got.headers['webhook-id'])).toMatch(/^msg_/);
    const event = verified(created.secret, got);
    expect(event).toEqual({ type: 'connect.search.finished', timestamp: expect.any(String), data: { request_id: id, status: 'complete' } });
    // The result it names is there to read.
    expect((await service.connect.inject({ url: `/v1/profiles/results/${id}`, headers: org })).json().status).toBe('complete');
    // A tampered body or another secret fails the check.
    expect(() => verified(created.secret, { ...got, body: got.body.replace('complete', 'error') })).toThrow();
    expect(() => verified('whsec_' + Buffer.alloc(32, 1).toString('base64'), got)).toThrow();
    await waitUntil(() => false, 300);
    expect(hook.received).toHaveLength(1);
    const [delivery] = await settledDeliveries(created.id);
    expect(delivery).toMatchObject({ id: got.headers['webhook-id'], status: 'delivered', attempts: 1, last_status: 200, event_type: 'connect.search.finished' });
  });

  it('says when a search found nobody', async () => {
    const hook = await receiver();
    const created = await register(hook.url);
    const id = await searchAsync({ email: 'nobody-here@example.org' });
    const [got] = await hook.waitFor(1);
    expect(verified(created.secret, got ?? { headers: {}, body: '' }).data).toEqual({ request_id: id, status: 'not_found' });
  });

  it('is tried again after a 500, with the same webhook-id, and counted as delivered once', async () => {
    const hook = await receiver((_r, i) => ({ status: i === 0 ? 500 : 204 }));
    const created = await register(hook.url);
    await searchAsync();
    const [first, second] = await hook.waitFor(2);
    expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    // A new attempt has its own timestamp, signed again.
    expect(verified(created.secret, second ?? { headers: {}, body: '' }).type).toBe('connect.search.finished');
    expect(await waitUntil(() => false, 800)).toBe(false);
    expect(hook.received).toHaveLength(2);
    expect(await settledDeliveries(created.id)).toMatchObject([{ status: 'delivered', attempts: 2, last_status: 204 }]);
  });

  it('is tried again after the receiver timed out', async () => {
    const hook = await receiver((_r, i) => (i === 0 ? 'hang' : { status: 200 }));
    const created = await register(hook.url);
    await searchAsync();
    const [first, second] = await hook.waitFor(2, 15_000);
    expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    const [delivery] = await settledDeliveries(created.id);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('is not followed through a redirect: the target gets nothing and the attempt fails', async () => {
    const target = await receiver();
    const hook = await receiver(() => ({ status: 302, headers: { location: target.url } }));
    const created = await register(hook.url);
    await searchAsync();
    await hook.waitFor(2);
    expect(target.received).toHaveLength(0);
    const [delivery] = await deliveries(created.id);
    expect(delivery?.last_status).toBe(302);
    expect(delivery?.last_error).toContain('redirects are not followed');
  });
});

describe('an endpoint that keeps failing', () => {
  it('is disabled once it has failed for the whole retry window, and says why', async () => {
    const hook = await receiver(() => ({ status: 500 }));
    const created = await register(hook.url);
    await searchAsync();
    // RAPPORT_WEBHOOK_RETRY_FOR is 4 s here (a day by default).
    expect(await waitUntil(() => hook.received.length >= 2, 10_000)).toBe(true);
    let state = await endpoint(created.id);
    for (let i = 0; i < 100 && !state?.disabled_at; i += 1) {
      await searchAsync();
      await new Promise((r) => setTimeout(r, 200));
      state = await endpoint(created.id);
    }
    expect(state?.disabled_at).not.toBeNull();
    expect(state?.disabled_reason).toContain('Every attempt failed');
    const seen = hook.received.length;
    // Disabled: new events are not sent to it, and its pending ones end as failed.
    await searchAsync();
    await waitUntil(() => false, 1500);
    expect(hook.received.length).toBe(seen);
    const list = await deliveries(created.id);
    expect(list.every((d) => d.status === 'failed')).toBe(true);
    // Enabled again, it receives the next event.
    hook.answer = () => ({ status: 200 });
    const enabled = await service.connect.inject({ method: 'POST', url: `/v1/webhooks/${created.id}/enable`, headers: org });
    expect(enabled.json()).toMatchObject({ disabled_at: null, disabled_reason: null });
    await searchAsync();
    await hook.waitFor(seen + 1);
  });

  it('is disabled at once by a 410 Gone', async () => {
    const hook = await receiver(() => ({ status: 410 }));
    const created = await register(hook.url);
    await searchAsync();
    await hook.waitFor(1);
    expect(await waitUntil(() => false, 500)).toBe(false);
    expect((await endpoint(created.id))?.disabled_reason).toContain('410');
  });
});

describe('rotating the secret', () => {
  it('signs with the new and the old secret during the overlap', async () => {
    const hook = await receiver();
    const created = await register(hook.url);
    const rotated = await service.connect.inject({ method: 'POST', url: `/v1/webhooks/${created.id}/rotate-secret`, headers: org });
    expect(rotated.statusCode).toBe(200);
    const { secret, previous_secret_expires_at: until } = rotated.json() as { secret: string; previous_secret_expires_at: string };
    expect(secret).not.toBe(created.secret);
    expect(Date.parse(until) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
    await searchAsync();
    const [got] = await hook.waitFor(1);
    if (!got) throw new Error('nothing received');
    expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verified(secret, got).type).toBe('connect.search.finished');
    expect(verified(created.secret, got).type).toBe('connect.search.finished');
    // The secret is never listed.
    expect((await service.connect.inject({ url: '/v1/webhooks', headers: org })).body).not.toContain('whsec_');
  });
});

describe('managing endpoints', () => {
  it("sends a test event on request, and keeps one organisation's endpoints from another", async () => {
    const hook = await receiver();
    const created = await register(hook.url, org, { description: 'CRM' });
    const test = await service.connect.inject({ method: 'POST', url: `/v1/webhooks/${created.id}/test`, headers: org });
    expect(test.statusCode).toBe(202);
    const [got] = await hook.waitFor(1);
    expect(got?.headers['webhook-id']).toBe(test.json().delivery_id);
    expect(verified(created.secret, got ?? { headers: {}, body: '' }).type).toBe('webhook.test');
    const other = { 'x-org-token': (await service.token('connect')).secret };
    expect((await service.connect.inject({ url: '/v1/webhooks', headers: other })).json()).toEqual({ data: [] });
    for (const [method, url] of [['DELETE', `/v1/webhooks/${created.id}`], ['GET', `/v1/webhooks/${created.id}/deliveries`], ['POST', `/v1/webhooks/${created.id}/test`], ['POST', `/v1/webhooks/${created.id}/rotate-secret`]] as const) {
      const refused = await service.connect.inject({ method, url, headers: other });
      expect(refused.statusCode, `${method} ${url}`).toBe(404);
    }
    const removed = await service.connect.inject({ method: 'DELETE', url: `/v1/webhooks/${created.id}`, headers: org });
    expect(removed.statusCode).toBe(204);
    expect((await service.connect.inject({ url: '/v1/webhooks', headers: org })).json().data.map((e: { id: string }) => e.id)).not.toContain(created.id);
  });

  it('refuses events of another API, and more than ten endpoints', async () => {
    const wrong = await service.connect.inject({ method: 'POST', url: '/v1/webhooks', headers: org, payload: { url: 'http://127.0.0.1:9/x', events: ['analysis.finished'] } });
    expect(wrong.statusCode).toBe(400);
    const fresh = { 'x-org-token': (await service.token('connect')).secret };
    for (let i = 0; i < 10; i += 1) await register(`http://127.0.0.1:9/x${i}`, fresh);
    const eleventh = await service.connect.inject({ method: 'POST', url: '/v1/webhooks', headers: fresh, payload: { url: 'http://127.0.0.1:9/y' } });
    expect(eleventh.statusCode).toBe(409);
    expect(eleventh.json().error.code).toBe('conflict');
  });
});
