import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTGOING_TEXT } from '../fixtures/texts.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { useTestService } from '../helpers/service.ts';

/*
 * A receiver that comes back after an outage: the retries it missed were pushed back (ten
 * minutes here, hours after a long outage in production); the first delivery it accepts again
 * brings the rest forward, so the backlog arrives at once instead of at each back-off's end.
 */
const service = useTestService({ RAPPORT_WEBHOOK_ALLOW_PRIVATE: 'true', RAPPORT_WEBHOOK_FIRST_RETRY_MS: '600000' });
let hook: Receiver;
let up = false;

beforeAll(async () => {
  hook = await startReceiver(() => ({ status: up ? 204 : 503 }));
});
afterAll(async () => {
  await hook?.close();
});

describe('an endpoint back after an outage', () => {
  it('gets the deliveries waiting out their back-off as soon as it accepts one again', async () => {
    const org = { 'x-org-token': (await service.token('connect')).secret };
    const created = await service.connect.inject({ method: 'POST', url: '/v1/webhooks', headers: org, payload: { url: hook.url } });
    expect(created.statusCode).toBe(201);
    const endpointId = created.json().id as string;
    const search = async (name: string) => {
      const response = await service.connect.inject({ method: 'POST', url: '/v1/profiles/async', headers: org, payload: { first_name: name, last_name: 'Outage', text_sample: OUTGOING_TEXT, text_type: 'email' } });
      expect(response.statusCode).toBe(202);
      return response.json().request_id as string;
    };
    const missed = [await search('Ann'), await search('Bob')];
    // Both failed (or waited for the one that did): their next attempt is minutes away.
    const deliveries = async () => (await service.connect.inject({ url: `/v1/webhooks/${endpointId}/deliveries`, headers: org })).json().data as Array<{ status: string; attempts: number; next_attempt_at: string | null }>;
    const deadline = Date.now() + 20_000;
    while ((await deliveries()).filter((d) => d.status === 'pending' && d.next_attempt_at !== null && Date.parse(d.next_attempt_at) > Date.now() + 60_000).length < 2) {
      if (Date.now() > deadline) throw new Error(`the deliveries were not put off: ${JSON.stringify(await deliveries())}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const failedAttempts = hook.received.length;
    expect(failedAttempts).toBeGreaterThanOrEqual(1);

    up = true;
    const fresh = await search('Cat');
    const got = await hook.waitFor(failedAttempts + 3, 20_000);
    const arrived = got.slice(failedAttempts).map((r) => JSON.parse(r.body).data.request_id as string);
    expect(arrived.sort()).toEqual([...missed, fresh].sort());
    // Recorded once the batch's answers are in.
    const recorded = Date.now() + 10_000;
    while ((await deliveries()).some((d) => d.status !== 'delivered') && Date.now() < recorded) await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await deliveries()).map((d) => d.status)).toEqual(['delivered', 'delivered', 'delivered']);
  });
});
