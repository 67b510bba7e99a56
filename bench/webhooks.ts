/**
 * Webhooks for finished Connect searches, on the embedded database, the service in this process
 * (its job worker, its webhook sender) and a receiver on loopback.
 *
 *   npx tsx bench/webhooks.ts [--searches 1000] [--rate 200] [--down-seconds 120] [--throughput 1000]
 *     [--rounds 2] [--parts latency,outage,throughput]
 *
 * 1. Latency: `--searches` async searches sent at `--rate` a second to a token with an endpoint;
 *    for each, from the search's completion (completed_at, in the database) to its webhook's
 *    arrival at the receiver: median, p99, max, and the share within 1 s (target 99 %).
 * 2. Outage: the receiver stops listening for `--down-seconds` (connections refused) while 200
 *    searches finish; then it listens again. Every search's webhook must arrive, none twice
 *    (by webhook-id and by request id), and the bench says how long after the return the last came.
 * 3. Throughput: `--throughput` async searches queued at once, then completed by the worker, for a
 *    token without an endpoint and for one with (every webhook delivered before the clock stops),
 *    alternated `--rounds` times: completed/s each way and the ratio (target: within 10 %).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { createToken } from '../src/access/tokens.ts';
import { buildConnectApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createContext } from '../src/context.ts';
import { openEmbedded } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { createLogger } from '../src/shared/logger.ts';
import { summarize } from './stats.ts';
import { BENCH_TEXT_1000 } from './texts.ts';

const { values } = parseArgs({
  options: {
    searches: { type: 'string', default: '1000' },
    rate: { type: 'string', default: '200' },
    'down-seconds': { type: 'string', default: '120' },
    throughput: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '2' },
    parts: { type: 'string', default: 'latency,outage,throughput' },
  },
});
const parts = new Set(values.parts.split(','));
const TEXT_300 = BENCH_TEXT_1000.split(' ').slice(0, 300).join(' ');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A receiver on loopback that can go away (connections refused) and come back on the same port. */
class Receiver {
  readonly arrivals: Array<{ webhookId: string; requestId: string; at: number }> = [];
  private server: Server;
  port = 0;
  constructor() {
    this.server = this.make();
  }
  private make(): Server {
    return createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { request_id?: string } };
        this.arrivals.push({ webhookId: String(request.headers['webhook-id']), requestId: body.data.request_id ?? '', at: Date.now() });
        response.writeHead(204).end();
      });
    });
  }
  async up(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }
  async down(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server = this.make();
  }
  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }
}

const db = await openEmbedded();
await migrate(db);
const config = loadConfig({ LOG_LEVEL: 'silent', RAPPORT_DEMO_DATA: 'false', RAPPORT_WEBHOOK_ALLOW_PRIVATE: 'true' });
const ctx = createContext(config, db, createLogger('silent'), { runJobs: true });
const app = await buildConnectApp(ctx);
const receiver = new Receiver();
await receiver.up();

async function token(withEndpoint: boolean): Promise<string> {
  const { secret } = await createToken(db, { kind: 'connect', name: `bench-webhooks-${withEndpoint}`, limits: { rateLimitPerMinute: null, monthlyQuota: null } });
  if (withEndpoint) {
    const created = await app.inject({ method: 'POST', url: '/v1/webhooks', headers: { 'x-org-token': secret }, payload: { url: receiver.url } });
    if (created.statusCode !== 201) throw new Error(`registering the endpoint answered ${created.statusCode}: ${created.body}`);
  }
  return secret;
}

async function search(secret: string, n: number): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/v1/profiles/async', headers: { 'x-org-token': secret }, payload: { first_name: `Bench${n}`, last_name: 'Person', text_sample: TEXT_300, text_type: 'email' } });
  if (response.statusCode !== 202) throw new Error(`POST /v1/profiles/async answered ${response.statusCode}: ${response.body}`);
  return (response.json() as { request_id: string }).request_id;
}

async function waitUntil(what: string, check: () => Promise<boolean> | boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
    await sleep(50);
  }
}

async function processing(): Promise<number> {
  const [row] = await db.query<{ n: number | string }>("SELECT count(*) AS n FROM profile_requests WHERE status = 'processing'");
  return Number(row?.n ?? 0);
}

// 1. Latency from completion to arrival.
if (parts.has('latency')) {
  const count = Number(values.searches);
  const gap = 1000 / Number(values.rate);
  const secret = await token(true);
  const ids: string[] = [];
  const started = Date.now();
  for (let i = 0; i < count; i++) {
    ids.push(await search(secret, i));
    const due = started + (i + 1) * gap;
    if (due > Date.now()) await sleep(due - Date.now());
  }
  const wanted = new Set(ids);
  await waitUntil('every webhook of the latency run', () => receiver.arrivals.filter((a) => wanted.has(a.requestId)).length >= count, 120_000);
  const completed = new Map((await db.query<{ id: string; completed_at: Date }>('SELECT id, completed_at FROM profile_requests WHERE id = ANY($1::text[])', [ids])).map((r) => [r.id, new Date(r.completed_at).getTime()]));
  const latencies = receiver.arrivals.filter((a) => wanted.has(a.requestId)).map((a) => a.at - (completed.get(a.requestId) ?? Number.NaN));
  const s = summarize(latencies);
  const withinSecond = latencies.filter((ms) => ms <= 1000).length / latencies.length;
  console.log(`webhook latency, search completed → receiver, ${count} searches at ${values.rate}/s: median ${s.median} ms, p99 ${s.p99} ms, max ${s.max} ms; ${(withinSecond * 100).toFixed(1)} % within 1 s (target 99 %)`);
}

// 2. The receiver down for a while: everything arrives after it returns, nothing twice.
if (parts.has('outage')) {
  const downMs = Number(values['down-seconds']) * 1000;
  const secret = await token(true);
  const before = receiver.arrivals.length;
  await receiver.down();
  const downAt = Date.now();
  const ids: string[] = [];
  for (let i = 0; i < 200; i++) ids.push(await search(secret, i));
  await waitUntil('the outage searches', async () => (await processing()) === 0, 120_000);
  await sleep(Math.max(0, downMs - (Date.now() - downAt)));
  await receiver.up();
  const backAt = Date.now();
  const wanted = new Set(ids);
  const mine = () => receiver.arrivals.slice(before).filter((a) => wanted.has(a.requestId));
  await waitUntil('every webhook after the outage', () => new Set(mine().map((a) => a.requestId)).size >= ids.length, 30 * 60_000);
  await sleep(2000);
  const got = mine();
  const byId = new Set(got.map((a) => a.webhookId));
  const byRequest = new Set(got.map((a) => a.requestId));
  const last = Math.max(...got.map((a) => a.at)) - backAt;
  console.log(`receiver down ${downMs / 1000} s: ${byRequest.size}/${ids.length} searches' webhooks arrived after it returned (the last ${(last / 1000).toFixed(1)} s after), ${got.length - byId.size} twice by webhook-id, ${got.length - byRequest.size} twice by request id`);
}

// 3. Throughput without and with webhooks, alternated.
if (parts.has('throughput')) {
  const count = Number(values.throughput);
  const rates: Record<'off' | 'on', number[]> = { off: [], on: [] };
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const mode of ['off', 'on'] as const) {
      const secret = await token(mode === 'on');
      const before = receiver.arrivals.length;
      // Sent 50 at a time; the worker starts on them as they come.
      const t = performance.now();
      for (let i = 0; i < count; i += 50) await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, k) => search(secret, i + k)));
      await waitUntil('the throughput searches', async () => (await processing()) === 0, 10 * 60_000);
      if (mode === 'on') await waitUntil('the throughput webhooks', () => receiver.arrivals.length - before >= count, 10 * 60_000);
      rates[mode].push(count / ((performance.now() - t) / 1000));
      console.log(`  round ${round + 1}, webhooks ${mode}: ${Math.round(rates[mode].at(-1) ?? 0)} searches/s (sent and completed${mode === 'on' ? ', every webhook delivered' : ''})`);
    }
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  // Each round's pair ran back to back: its ratio is the least disturbed by a shared machine's swings.
  const ratios = rates.on.map((on, i) => on / (rates.off[i] ?? Number.NaN)).sort((a, b) => a - b);
  const middle = ratios[Math.floor(ratios.length / 2)] ?? Number.NaN;
  console.log(
    `async search throughput with webhooks on: ${(middle * 100).toFixed(0)} % of without, the middle round's ratio (target ≥ 90 %; rounds ${ratios.map((r) => `${(r * 100).toFixed(0)} %`).join(', ')}); ` +
      `mean of the rounds ${Math.round(mean(rates.off))}/s off, ${Math.round(mean(rates.on))}/s on`,
  );
}

await app.close();
await ctx.shutdown();
await receiver.down();
await db.close();
