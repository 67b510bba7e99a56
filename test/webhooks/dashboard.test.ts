import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, csrfOf, signUp, takeTest, testLinkOf } from '../helpers/assessment.ts';
import { waitUntil } from '../helpers/process.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { useTestService } from '../helpers/service.ts';

/** A registered user's webhooks on the dashboard: added, tried, disabled and told, enabled, removed. */
const service = useTestService({ RAPPORT_WEBHOOK_ALLOW_PRIVATE: 'true', RAPPORT_WEBHOOK_FIRST_RETRY_MS: '200', RAPPORT_WEBHOOK_RETRY_FOR: '3', RAPPORT_WEBHOOK_TIMEOUT: '1' });
let hook: Receiver;
let owner: Browser;

async function page(): Promise<string> {
  const response = await owner.get('/dashboard/webhooks');
  expect(response.statusCode).toBe(200);
  return response.body;
}

function endpointIdIn(html: string): string {
  const id = /action="\/dashboard\/webhooks\/(ep_[\w-]+)\/rotate"/.exec(html)?.[1];
  if (!id) throw new Error('no endpoint on the page');
  return id;
}

beforeAll(async () => {
  hook = await startReceiver();
  owner = new Browser(service.base);
  await signUp(owner, 'dash-hooks@example.com');
});
afterAll(async () => {
  await hook?.close();
});

describe('the webhooks page', () => {
  it('adds an endpoint, shows its secret once, and the next completed test reaches it', async () => {
    const dashboard = await owner.get('/dashboard');
    expect(dashboard.body).toContain('href="/dashboard/webhooks"');
    const added = await owner.post('/dashboard/webhooks', { csrf: csrfOf(await page()), url: hook.url, events: 'assessment.completed', description: 'HR system' });
    expect(added.statusCode).toBe(200);
    const secret = /<code id="secret-[^"]+">(whsec_[^<]+)<\/code>/.exec(added.body)?.[1];
    expect(secret).toBeDefined();
    expect(await page()).not.toContain(secret);
    await takeTest(service.base, await testLinkOf(owner), { email: 'dash-taker@example.org' });
    const [got] = await hook.waitFor(1);
    expect(JSON.parse(got?.body ?? '{}')).toMatchObject({ type: 'assessment.completed', data: { email: 'dash-taker@example.org' } });
    expect(await waitUntil(() => false, 500)).toBe(false);
    expect(await page()).toMatch(/assessment\.completed<\/td><td data-label="Status">delivered/);
  });

  it('refuses a form without its CSRF token, and another user acting on the endpoint', async () => {
    const id = endpointIdIn(await page());
    expect((await owner.post(`/dashboard/webhooks/${id}/test`, {})).statusCode).toBe(403);
    const stranger = new Browser(service.base);
    await signUp(stranger, 'stranger-hooks@example.com');
    const strangerPage = await stranger.get('/dashboard/webhooks');
    const refused = await stranger.post(`/dashboard/webhooks/${id}/delete`, { csrf: csrfOf(strangerPage.body), confirm: 'delete' });
    expect(refused.statusCode).toBe(404);
    expect(await page()).toContain(id);
  });

  it('tells the owner on the dashboard when an endpoint is disabled, until it is enabled again', async () => {
    const id = endpointIdIn(await page());
    hook.answer = () => ({ status: 500 });
    const link = await testLinkOf(owner);
    // RAPPORT_WEBHOOK_RETRY_FOR is 3 s here: a few failing events over it disable the endpoint.
    for (let i = 0; i < 60 && !(await page()).includes('Disabled '); i += 1) {
      if (i % 5 === 0) await takeTest(service.base, link, { email: `fail-${i}@example.org` });
      await new Promise((r) => setTimeout(r, 250));
    }
    const dashboard = (await owner.get('/dashboard')).body;
    expect(dashboard).toContain('A webhook endpoint was disabled');
    expect(dashboard).toContain('Every attempt failed');
    const enabled = await owner.post(`/dashboard/webhooks/${id}/enable`, { csrf: csrfOf(await page()) });
    expect(enabled.statusCode).toBe(303);
    expect((await owner.get('/dashboard')).body).not.toContain('A webhook endpoint was disabled');
    hook.answer = () => ({ status: 200 });
    const seen = hook.received.length;
    expect((await owner.post(`/dashboard/webhooks/${id}/test`, { csrf: csrfOf(await page()) })).statusCode).toBe(303);
    const test = (await hook.waitFor(seen + 1))[seen];
    expect(JSON.parse(test?.body ?? '{}').type).toBe('webhook.test');
  });

  it('rotates the secret, and removes the endpoint only with its box ticked', async () => {
    const id = endpointIdIn(await page());
    const rotated = await owner.post(`/dashboard/webhooks/${id}/rotate`, { csrf: csrfOf(await page()) });
    expect(rotated.body).toContain('keeps signing for 24 hours');
    expect(rotated.body).toMatch(/<code id="secret-[^"]+">whsec_/);
    expect((await owner.post(`/dashboard/webhooks/${id}/delete`, { csrf: csrfOf(await page()) })).statusCode).toBe(400);
    expect((await owner.post(`/dashboard/webhooks/${id}/delete`, { csrf: csrfOf(await page()), confirm: 'delete' })).statusCode).toBe(303);
    expect(await page()).not.toContain(id);
  });
});
