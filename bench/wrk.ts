/**
 * wrk (Debian's package) as the scale-out bench's load generator. On a small machine the load
 * generator shares the cores with the service it measures, so what it costs per request comes
 * off what the API processes can get: autocannon (JavaScript) costs about 80 µs a request here,
 * wrk (C, epoll) a small fraction of that. wrk's own CPU time is read from this process's
 * reaped children (/proc/self/stat's cutime and cstime).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { reapedChildrenCpuMs } from './cpu-limits.ts';

export const HAVE_WRK = spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;

export interface WrkResult {
  requests: number;
  rate: number;
  /** Answers other than 2xx/3xx, and socket errors. */
  failed: number;
  /** wrk's own CPU milliseconds. */
  cpuMs: number;
  /** The 99th percentile of the requests' latency, milliseconds. */
  p99Ms: number;
}

/**
 * A Lua script that asks for `path(i)` with a uniformly random i below `count` (seeded, so runs
 * ask for the same people; the requests are formatted once, in init), and prints the summary as
 * one JSON line at the end.
 */
function script(pathPrefix: string, pathSuffix: string, count: number, headers: Record<string, string>): string {
  if (!Number.isInteger(count) || count < 1) throw new Error(`wrk needs at least one path to ask for (count ${count})`);
  // Headers go in the script (a file in a private temporary folder), not on wrk's command line,
  // where any local user could read the token with ps.
  const lua = (text: string) => `"${text.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\r\n]/g, '')}"`;
  const headerLines = Object.entries(headers).map(([name, value]) => `wrk.headers[${lua(name)}] = ${lua(value)}`).join('\n');
  return `math.randomseed(5)
${headerLines}
local requests = {}
init = function(args)
  for i = 0, ${count - 1} do requests[i + 1] = wrk.format("GET", "${pathPrefix}" .. i .. "${pathSuffix}") end
end
request = function()
  return requests[math.random(1, ${count})]
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"duration_us":%d,"failed":%d,"p99_us":%d}\\n', summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout + e.status, latency:percentile(99)))
end
`;
}

export interface WrkOptions {
  baseUrl: string;
  headers: Record<string, string>;
  connections: number;
  seconds: number;
  /** Requests go to `${pathPrefix}${i}${pathSuffix}`, i uniformly random in [0, count). */
  pathPrefix: string;
  pathSuffix: string;
  count: number;
}

export async function runWrk(options: WrkOptions): Promise<WrkResult> {
  const dir = await mkdtemp(path.join(tmpdir(), 'rapport-wrk-'));
  try {
    const file = path.join(dir, 'paths.lua');
    await writeFile(file, script(options.pathPrefix, options.pathSuffix, options.count, options.headers), { mode: 0o600 });
    const before = reapedChildrenCpuMs();
    const child = spawn('wrk', ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '-s', file, options.baseUrl], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const cpuMs = reapedChildrenCpuMs() - before;
    const line = output.split('\n').find((l) => l.startsWith('{"requests"'));
    if (code !== 0 || !line) throw new Error(`wrk failed (exit ${code}):\n${output}`);
    const summary = JSON.parse(line) as { requests: number; duration_us: number; failed: number; p99_us: number };
    return { requests: summary.requests, rate: summary.requests / (summary.duration_us / 1e6), failed: summary.failed, cpuMs, p99Ms: summary.p99_us / 1000 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
