import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importPeople } from '../../src/people/import.ts';
import { runVerb } from '../../src/operator/verbs.ts';
import { textPdf } from '../fixtures/pdf.ts';
import { OUTGOING_TEXT } from '../fixtures/texts.ts';
import { Browser, newToken, signUp, takeTest, testLinkOf } from '../helpers/assessment.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { useTestService } from '../helpers/service.ts';

async function waitUntilAsync(check: () => Promise<boolean>, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

/** Each owner hears of its own work: an enterprise token of its PDF analyses, a user of the tests taken through their links. */
const service = useTestService({ RAPPORT_WEBHOOK_ALLOW_PRIVATE: 'true' });
let hook: Receiver;

function event(secret: string, index: number) {
  const got = hook.received[index];
  if (!got) throw new Error(`no request ${index}`);
  const headers = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(got.headers[h])]));
  return new Webhook(secret).verify(got.body, headers) as { type: string; data: Record<string, unknown> };
}

beforeAll(async () => {
  hook = await startReceiver();
});
afterAll(async () => {
  await hook?.close();
});

describe('group A', () => {
  it('sends analysis.finished when a PDF analysis ends', async () => {
    const auth = { authorization: `Bearer ${(await service.token('enterprise')).secret}` };
    const created = await service.base.inject({ method: 'POST', url: '/v1/webhooks', headers: auth, payload: { url: `${hook.url}/a` } });
    expect(created.statusCode).toBe(201);
    expect(created.json().events).toEqual(['analysis.finished']);
    const before = hook.received.length;
    const upload = await service.base.inject({ method: 'POST', url: '/v1/analysis/pdf', headers: { ...auth, 'content-type': 'application/pdf' }, payload: Buffer.from(await textPdf(OUTGOING_TEXT)) });
    const id = upload.json().data.id as string;
    await hook.waitFor(before + 1, 30_000);
    expect(event(created.json().secret, before)).toEqual({ type: 'analysis.finished', timestamp: expect.any(String), data: { analysis_id: id, source: 'pdf', status: 'complete' } });
    // Connect's events are not group A's.
    const wrong = await service.base.inject({ method: 'POST', url: '/v1/webhooks', headers: auth, payload: { url: hook.url, events: ['connect.search.finished'] } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toContain('must be one of analysis.finished');
  });
});

describe('group B and the dashboard user', () => {
  let dir: string;
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('sends assessment.completed with the email and result id, then assessment.deleted when the taker deletes it', async () => {
    const owner = new Browser(service.base);
    await signUp(owner, 'hooked@example.com');
    const token = await newToken(owner);
    const link = await testLinkOf(owner);
    const created = await service.base.inject({ method: 'POST', url: `/v1/personality_assessments/webhooks?token=${token}`, payload: { url: `${hook.url}/b` } });
    expect(created.statusCode, created.body).toBe(201);
    const { secret } = created.json() as { secret: string };
    expect(created.json().events).toEqual(['assessment.completed', 'assessment.deleted']);
    const before = hook.received.length;
    const done = await takeTest(service.base, link, { email: 'Taker@Example.org', first_name: 'Tess' });
    const resultPath = done.headers.location as string;
    const resultId = /\/r\/([^?]+)/.exec(resultPath)?.[1];
    await hook.waitFor(before + 1);
    expect(event(secret, before)).toMatchObject({ type: 'assessment.completed', data: { result_id: resultId, email: 'Taker@Example.org' } });
    // The taker deletes it through the link on the result page.
    const taker = new Browser(service.base);
    const key = new URL(resultPath, 'http://x').searchParams.get('key') ?? '';
    const deleted = await taker.post(`/r/${resultId}/delete`, { key });
    expect(deleted.statusCode).toBe(200);
    await hook.waitFor(before + 2);
    expect(event(secret, before + 1)).toMatchObject({ type: 'assessment.deleted', data: { result_id: resultId, email: 'Taker@Example.org' } });
  });

  it("tells the user when the operator erases a person, and erases the person's deliveries still pending", async () => {
    const owner = new Browser(service.base);
    await signUp(owner, 'forget-hooks@example.com');
    const token = await newToken(owner);
    const link = await testLinkOf(owner);
    dir = mkdtempSync(path.join(tmpdir(), 'rapport-hooks-'));
    const file = path.join(dir, 'people.jsonl');
    writeFileSync(file, JSON.stringify({ first_name: 'Fern', last_name: 'Forgotten', email: 'fern@example.org', texts: [{ type: 'various', text: OUTGOING_TEXT }] }));
    await importPeople(service.ctx, file);
    // One endpoint that answers, one that is down (its delivery stays pending, retrying).
    const down = await startReceiver(() => ({ status: 503 }));
    try {
      const live = (await service.base.inject({ method: 'POST', url: `/v1/personality_assessments/webhooks?token=${token}`, payload: { url: `${hook.url}/forget` } })).json();
      const dead = (await service.base.inject({ method: 'POST', url: `/v1/personality_assessments/webhooks?token=${token}`, payload: { url: down.url } })).json();
      const before = hook.received.length;
      const done = await takeTest(service.base, link, { email: 'fern@example.org', first_name: 'Fern' });
      const resultId = /\/r\/([^?]+)/.exec(done.headers.location as string)?.[1];
      await hook.waitFor(before + 1);
      await down.waitFor(1);
      const deliveriesOf = async (id: string) => (await service.base.inject({ url: `/v1/personality_assessments/webhooks/${id}/deliveries?token=${token}` })).json().data as Array<{ status: string }>;
      expect(await waitUntilAsync(async () => (await deliveriesOf(live.id))[0]?.status === 'delivered')).toBe(true);
      const pending = (await service.base.inject({ url: `/v1/personality_assessments/webhooks/${dead.id}/deliveries?token=${token}` })).json().data;
      expect(pending).toMatchObject([{ event_type: 'assessment.completed', status: 'pending' }]);
      const summary = await runVerb(service.ctx, 'people.delete', { email: 'fern@example.org' });
      expect(summary.removed).toMatchObject({ webhook_deliveries: 1, assessments: 1, person: 1 });
      await hook.waitFor(before + 2);
      expect(event(live.secret, before + 1)).toMatchObject({ type: 'assessment.deleted', data: { result_id: resultId, email: 'fern@example.org' } });
      const after = (await service.base.inject({ url: `/v1/personality_assessments/webhooks/${dead.id}/deliveries?token=${token}` })).json().data;
      expect(after.map((d: { event_type: string }) => d.event_type)).toEqual(['assessment.deleted']);
    } finally {
      await down.close();
    }
  });

  it("refuses an operator's assessment token, which belongs to no user", async () => {
    const operatorToken = (await service.token('assessment')).secret;
    const response = await service.base.inject({ url: `/v1/personality_assessments/webhooks?token=${operatorToken}` });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.message).toContain('registered user');
  });
});
