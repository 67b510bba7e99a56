/**
 * Does a hostile body stall the service (issue 25, finding 2)? Against a running service, ten
 * clients post, to every route that takes a body, a form of a million fields and bodies at each
 * of the route's caps: the most form fields and bytes, the deepest and largest JSON, and the
 * longest texts the text routes read (test/helpers/hostile-bodies.ts). `/healthz` is probed in a
 * loop from a thread of its own (test/helpers/healthz-probe.ts) and reported beside its idle
 * figures from the same run; the target is the 95th percentile within 50 ms of idle. Also: how
 * the answers came (413 for every over-cap body, before it is read).
 *
 *   npx tsx bench/bodies.ts [--rounds 3]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { summarize } from './stats.ts';
import { probeWhile, startProbe } from '../test/helpers/healthz-probe.ts';
import { hostileRequests, sendFromClients } from '../test/helpers/hostile-bodies.ts';
import { runCli, startServiceProcess } from '../test/helpers/process.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' } } });
const rounds = Number(values.rounds);
const CLIENTS = 10;
const dir = mkdtempSync(path.join(tmpdir(), 'rapport-bench-bodies-'));
const env = { RAPPORT_DATA_DIR: dir, RAPPORT_DEMO_DATA: 'true', LOG_LEVEL: 'info', MAX_CONNECTIONS_PER_CLIENT: '0' };
const service = await startServiceProcess(env);

async function token(kind: string): Promise<string> {
  const created = await runCli(['tokens', 'create', '--kind', kind, '--name', `bench ${kind}`, '--rate-limit', 'none', '--json'], env);
  return (JSON.parse(created.stdout) as { token: string }).token;
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
try {
  const enterpriseToken = await token('enterprise');
  const connectToken = await token('connect');
  const search = async (email: string) => {
    const response = await fetch(`${service.connectUrl}/v1/profiles`, { method: 'POST', headers: { 'x-org-token': connectToken, 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
    return ((await response.json()) as { request_id: string }).request_id;
  };
  const searches: [string, string] = [await search('marisol.quintero@example.com'), await search('theo.brandvold@example.org')];
  const requests = hostileRequests({ baseUrl: service.baseUrl, connectUrl: service.connectUrl, enterpriseToken, connectToken, searches });
  await sendFromClients(requests, 1, 1); // warm up: routes, the text workers' first texts

  const idle = summarize(await probeWhile(service.baseUrl, () => Promise.resolve(), 3000));
  const probe = await startProbe(service.baseUrl);
  const started = performance.now();
  const outcomes = await sendFromClients(requests, CLIENTS, rounds);
  const seconds = (performance.now() - started) / 1000;
  const busy = summarize(await probe.stop());
  const sent = requests.length * CLIENTS * rounds;
  console.log(`/healthz idle: median ${fmt(idle.median)}, p95 ${fmt(idle.p95)}, p99 ${fmt(idle.p99)}, max ${fmt(idle.max)}`);
  console.log(
    `/healthz while ${CLIENTS} clients post million-field forms and bodies at each cap to every route that takes a body (${sent} requests in ${seconds.toFixed(1)} s): ` +
      `median ${fmt(busy.median)}, p95 ${fmt(busy.p95)}, p99 ${fmt(busy.p99)}, max ${fmt(busy.max)}; p95 ${fmt(busy.p95 - idle.p95)} over idle (target under 50 ms)`,
  );
  let refused = 0;
  let reset = 0;
  let failures = 0;
  for (const hostile of requests) {
    for (const outcome of outcomes.get(hostile.name) ?? []) {
      if (hostile.overCap) {
        if (outcome === (hostile.refusedWith ?? 413)) refused++;
        else if (outcome === 'reset') reset++;
        else failures++;
      } else if (outcome === 'reset' || outcome >= 500 || outcome === 413) failures++;
    }
  }
  console.log(`over-cap bodies: ${refused} refused (413; 415 at the PDF upload), ${reset} closed while still sending; unexpected answers (a 5xx, a 413 at the caps, a reset): ${failures}`);
} finally {
  await service.stop();
  rmSync(dir, { recursive: true, force: true });
}
