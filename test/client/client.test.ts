import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assessmentClient,
  connectClient,
  enterpriseClient,
  RapportError,
  SearchWebhookWaiter,
  verifyWebhook,
  WebhookVerificationError,
} from '../../clients/typescript/src/index.ts';
import { importPeople } from '../../src/people/import.ts';
import { textPdf } from '../fixtures/pdf.ts';
import { OUTGOING_TEXT, RESERVED_TEXT } from '../fixtures/texts.ts';
import { Browser, newToken, signUp, takeTest, testLinkOf } from '../helpers/assessment.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { createTestService, type TestService } from '../helpers/service.ts';

/** The typed client (clients/typescript) driving all three groups of a real service, listening on loopback. */
let service: TestService;
let baseUrl: string;
let connectUrl: string;
let dir: string;
const receivers: Receiver[] = [];

function headersOf(got: { headers: Record<string, string | string[] | undefined> }) {
  return got.headers;
}

beforeAll(async () => {
  service = await createTestService({ RAPPORT_WEBHOOK_ALLOW_PRIVATE: 'true' });
  await service.base.listen({ port: 0, host: '127.0.0.1' });
  await service.connect.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(service.base.server.address() as AddressInfo).port}`;
  connectUrl = `http://127.0.0.1:${(service.connect.server.address() as AddressInfo).port}`;
  dir = mkdtempSync(path.join(tmpdir(), 'rapport-client-'));
  const people = path.join(dir, 'people.jsonl');
  writeFileSync(people, JSON.stringify({ first_name: 'Cleo', last_name: 'Client', email: 'cleo@example.org', texts: [{ type: 'various', text: OUTGOING_TEXT }] }));
  await importPeople(service.ctx, people);
});
afterAll(async () => {
  for (const receiver of receivers) await receiver.close();
  await service?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('group A, Enterprise', () => {
  it('looks a person up, analyses text, and answers refusals as RapportError with the code and request id', async () => {
    const client = enterpriseClient({ baseUrl, token: (await service.token('enterprise')).secret });
    const profile = await client.profile({ email: 'CLEO@example.org' });
    expect(profile).toMatchObject({ data: { first_name: 'Cleo' } });
    const analysed = await client.analyzeText(RESERVED_TEXT);
    expect(analysed).toMatchObject({ data: { personality: expect.any(Object) } });

    const missing = await client.profile({ email: 'nobody@example.org' }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(RapportError);
    expect(missing).toMatchObject({ status: 404, code: 'not_found', requestId: expect.stringMatching(/\w/) });

    const connectToken = (await service.token('connect')).secret;
    const wrongKind = await enterpriseClient({ baseUrl, token: connectToken }).usage().catch((error: unknown) => error);
    expect(wrongKind).toMatchObject({ status: 401, code: 'unauthorized' });
    expect((wrongKind as RapportError).message).toMatch(/connect/i);
  });

  it('uploads a PDF from a file path and from a stream, waits for each, and is told by a signed webhook', async () => {
    const client = enterpriseClient({ baseUrl, token: (await service.token('enterprise')).secret });
    const hook = await startReceiver();
    receivers.push(hook);
    const endpoint = await client.webhooks.create({ url: hook.url });
    expect(endpoint).toMatchObject({ events: ['analysis.finished'], secret: expect.stringMatching(/^whsec_/) });

    const file = path.join(dir, 'resume.pdf');
    writeFileSync(file, await textPdf(OUTGOING_TEXT));
    const fromPath = await client.uploadPdf(file);
    const fromStream = await client.uploadPdf(createReadStream(file));
    expect(fromPath).not.toBe(fromStream);
    for (const id of [fromPath, fromStream]) {
      const done = await client.waitForAnalysis(id, { pollIntervalMs: 100, timeoutMs: 30_000 });
      expect(done).toMatchObject({ data: { personality: expect.any(Object) } });
    }

    const got = await hook.waitFor(2, 30_000);
    const events = got.map((request) => verifyWebhook(endpoint.secret, request.body, headersOf(request)));
    expect(events.map((e) => e.type)).toEqual(['analysis.finished', 'analysis.finished']);
    expect(events.map((e) => (e.type === 'analysis.finished' ? e.data.analysis_id : null)).sort()).toEqual([fromPath, fromStream].sort());
    expect(() => verifyWebhook('whsec_' + Buffer.alloc(32, 1).toString('base64'), got[0]?.body ?? '', headersOf(got[0] ?? { headers: {} }))).toThrow(WebhookVerificationError);
    // The receiver's answer reaches the service a moment after the request reached the receiver:
    // the delivery is marked delivered once the service has read that answer.
    await expect
      .poll(() => client.webhooks.deliveries(endpoint.id), { timeout: 10_000, interval: 50 })
      .toMatchObject({ data: [{ status: 'delivered' }, { status: 'delivered' }] });
  });
});

describe('group B, Assessment', () => {
  it('finds a person who took the test, and verifies its webhook with either secret during a rotation', async () => {
    const owner = new Browser(service.base);
    await signUp(owner, 'client-user@example.com');
    const client = assessmentClient({ baseUrl, token: await newToken(owner) });
    const hook = await startReceiver();
    receivers.push(hook);
    const endpoint = await client.webhooks.create({ url: hook.url, events: ['assessment.completed'] });
    const rotated = await client.webhooks.rotateSecret(endpoint.id);
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect(rotated.previous_secret_expires_at).not.toBeNull();

    await takeTest(service.base, await testLinkOf(owner), { email: 'Taken@Example.org', first_name: 'Tam' });
    const [got] = await hook.waitFor(1);
    for (const secret of [endpoint.secret, rotated.secret]) {
      expect(verifyWebhook(secret, got?.body ?? '', headersOf(got ?? { headers: {} }))).toMatchObject({ type: 'assessment.completed', data: { email: 'Taken@Example.org' } });
    }
    const found = await client.find('taken@example.org');
    expect(found).toMatchObject({ first_name: 'Tam' });
    expect((await client.usage()).data).toMatchObject({ calls_this_month: expect.any(Number) });
    await expect(client.find('never@example.org')).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('group C, Connect', () => {
  const criteria = { first_name: 'Nobody', last_name: 'Atall', text_sample: OUTGOING_TEXT, text_type: 'email' } as const;

  it('search() polls an async search to its end; the result feeds relationships, messaging and emails', async () => {
    const client = connectClient({ baseUrl: connectUrl, token: (await service.token('connect')).secret });
    const one = await client.search(criteria, { pollIntervalMs: 100, timeoutMs: 30_000 });
    const two = await client.search({ ...criteria, first_name: 'Other', text_sample: RESERVED_TEXT }, { pollIntervalMs: 100, timeoutMs: 30_000 });
    expect(one.status).toBe('complete');
    expect(two.status).toBe('complete');
    const oneId = 'request_id' in one ? one.request_id : '';
    const twoId = 'request_id' in two ? two.request_id : '';
    expect(await client.relationship(oneId, twoId)).toMatchObject({});
    expect(Array.isArray(await client.messageRecommendations(oneId, twoId, 'Hi, could we meet on Friday to go over the numbers?'))).toBe(true);
    expect((await client.sampleEmails(oneId)).length).toBeGreaterThan(0);
    await expect(client.result('nothing-like-this')).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  it('search() with a webhook is woken by connect.search.finished, not by polling', async () => {
    const client = connectClient({ baseUrl: connectUrl, token: (await service.token('connect')).secret });
    let waiter: SearchWebhookWaiter | null = null;
    const hook = await startReceiver((request) => {
      waiter?.receive(request.body, headersOf(request));
      return { status: 204 };
    });
    receivers.push(hook);
    const endpoint = await client.webhooks.create({ url: hook.url });
    waiter = new SearchWebhookWaiter(endpoint.secret);
    // Polling alone would not look again within the time allowed: only the webhook can end the wait.
    const outcome = await client.search(criteria, { webhook: waiter, pollIntervalMs: 120_000, timeoutMs: 20_000 });
    expect(outcome.status).toBe('complete');
    // On a busy machine the worker can finish before the client's first look, which then needs no
    // wake-up; the webhook still goes out, a moment later.
    for (let waited = 0; hook.received.length === 0 && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hook.received.length).toBeGreaterThanOrEqual(1);

    // A forged webhook wakes nobody.
    const [real] = hook.received;
    expect(() => waiter?.receive(`${real?.body ?? ''} `, headersOf(real ?? { headers: {} }))).toThrow(WebhookVerificationError);
  });
});
