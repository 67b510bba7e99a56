import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTGOING_TEXT } from '../fixtures/texts.ts';
import { cliEnvironment, type CliEnvironment } from '../helpers/cli-env.ts';
import { runCliInProcess } from '../helpers/in-process-cli.ts';
import { runCli, startServiceProcess, waitUntil, type ServiceProcess } from '../helpers/process.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';

/*
 * The service as operators run it, with `rapport webhooks` through its admin socket (or, on
 * PostgreSQL, the same database), and a kill -9 in the middle of a delivery.
 */
let env: CliEnvironment;
let hook: Receiver;
let service: ServiceProcess | null = null;
let serviceEnv: Record<string, string>;
let org = '';
let endpoint = { id: '', secret: '' };

function verified(got: { headers: Record<string, unknown>; body: string }) {
  const headers = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(got.headers[h])]));
  return new Webhook(endpoint.secret).verify(got.body, headers) as { type: string; data: Record<string, unknown> };
}

/**
 * `rapport ARGS` against the running service, in this test's process (the same `main`, the same
 * admin socket or database; a `rapport` process costs ~2–3 s of CPU to start). `asProcess` runs
 * it as operators do, in a process of its own: one such command of the family stays a process.
 */
async function cli(args: string[], how: 'in-process' | 'asProcess' = 'in-process') {
  const result = await (how === 'asProcess' ? runCli : runCliInProcess)(args, serviceEnv);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

beforeAll(async () => {
  env = await cliEnvironment('hooks');
  hook = await startReceiver();
  serviceEnv = { ...env.env, RAPPORT_WEBHOOK_ALLOW_PRIVATE: 'true', RAPPORT_WEBHOOK_TIMEOUT: '2', RAPPORT_WEBHOOK_FIRST_RETRY_MS: '500' };
  service = await startServiceProcess(serviceEnv);
}, 120_000);
afterAll(async () => {
  await service?.stop();
  await hook?.close();
  await env?.cleanup();
});

describe('rapport webhooks', () => {
  it('adds an endpoint for a token, lists it, sends it a test event, shows the delivery and removes another', async () => {
    org = JSON.parse(await cli(['tokens', 'create', '--kind', 'connect', '--name', 'Hooked org', '--json'])).token;
    const tokens = JSON.parse(await cli(['tokens', 'list', '--json'])) as Array<{ id: string; name: string }>;
    const tokenId = tokens.find((t) => t.name === 'Hooked org')?.id ?? '';
    endpoint = JSON.parse(await cli(['webhooks', 'add', '--token', tokenId, hook.url, '--description', 'CRM', '--json'], 'asProcess'));
    expect(endpoint.secret).toMatch(/^whsec_/);
    const listed = await cli(['webhooks', 'list']);
    expect(listed).toContain(endpoint.id);
    expect(listed).toContain(`token ${tokenId}`);
    expect(listed).toContain('connect.search.finished');
    expect(listed).not.toContain('whsec_');
    expect(await cli(['webhooks', 'test', endpoint.id])).toContain('Queued test event msg_');
    const [got] = await hook.waitFor(1);
    expect(verified(got ?? { headers: {}, body: '' }).type).toBe('webhook.test');
    expect(await waitUntil(() => false, 500)).toBe(false);
    expect(await cli(['webhooks', 'deliveries', endpoint.id])).toMatch(/webhook\.test\s+delivered\s+1\s+200/);
    const other = JSON.parse(await cli(['webhooks', 'add', '--token', tokenId, `${hook.url}/other`, '--json'])) as { id: string };
    expect(await cli(['webhooks', 'remove', other.id])).toContain(`Removed webhook endpoint ${other.id}`);
    expect(await cli(['webhooks', 'list', '--token', tokenId])).not.toContain(other.id);
    const refused = await runCliInProcess(['webhooks', 'add', '--user', 'nobody@example.org', hook.url], serviceEnv);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('No user nobody@example.org');
  }, 120_000);
});

describe('a kill -9 of the service mid-delivery', () => {
  it('loses nothing: after the restart the delivery goes out again, with the same webhook-id', async () => {
    const before = hook.received.length;
    // The receiver holds the first attempt open, so the service dies while sending it.
    hook.answer = (_request, index) => (index === before ? 'hang' : { status: 200 });
    const started = await fetch(`${service?.connectUrl}/v1/profiles/async`, {
      method: 'POST',
      headers: { 'x-org-token': org, 'content-type': 'application/json' },
      body: JSON.stringify({ first_name: 'Kim', last_name: 'Killed', text_sample: OUTGOING_TEXT, text_type: 'email' }),
    });
    const requestId = ((await started.json()) as { request_id: string }).request_id;
    const inFlight = (await hook.waitFor(before + 1))[before];
    const child = service?.child;
    child?.kill('SIGKILL');
    await new Promise((resolve) => (child?.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
    service = await startServiceProcess(serviceEnv);
    // Embedded: the restarted service takes the job back at once. PostgreSQL: when its lease ends.
    const again = (await hook.waitFor(before + 2, 90_000))[before + 1];
    expect(again?.headers['webhook-id']).toBe(inFlight?.headers['webhook-id']);
    expect(verified(again ?? { headers: {}, body: '' })).toMatchObject({ type: 'connect.search.finished', data: { request_id: requestId, status: 'complete' } });
    expect(await waitUntil(() => false, 1000)).toBe(false);
    expect(hook.received).toHaveLength(before + 2);
    const deliveries = JSON.parse(await cli(['webhooks', 'deliveries', endpoint.id, '--json'])) as Array<{ id: string; status: string }>;
    expect(deliveries.find((d) => d.id === inFlight?.headers['webhook-id'])?.status).toBe('delivered');
  }, 180_000);
});
