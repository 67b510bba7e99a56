/**
 * A Rapport service process started from a given checkout, as an operator starts it
 * (`node bin/rapport.mjs serve`, V8's defaults: no test flags such as --liftoff-only, which
 * would leave the embedded database's WebAssembly unoptimised for the whole run), with its CPU
 * read from /proc. The benches that compare this checkout with another (`--before DIR`) start
 * both through here, so the two differ only in their code.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../test/helpers/process.ts';

export interface BenchService {
  pid: number;
  connectUrl: string;
  baseUrl: string;
  /** user + system CPU of the whole process (all its threads) so far, in milliseconds. */
  cpuMs(): number;
  /** The first log line holding `text`, once written (polled), or null after `ms`. */
  waitForLog(text: string, ms: number): Promise<string | null>;
  stop(): Promise<void>;
}

/** user + system CPU of a process, in milliseconds (/proc/PID/stat, clock ticks of 10 ms). */
export function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command name.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export async function startServiceAt(root: string, env: Record<string, string>, logFile: string, nodeFlags: readonly string[] = []): Promise<BenchService> {
  const port = await freePort();
  const connectPort = await freePort();
  const fd = openSync(logFile, 'w');
  const child = spawn(process.execPath, [...nodeFlags, path.join(root, 'bin/rapport.mjs'), 'serve'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), CONNECT_PORT: String(connectPort), ...env },
    cwd: root,
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service at ${root} exited early:\n${readFileSync(logFile, 'utf8')}`);
    const ok = await fetch(`${baseUrl}/healthz`).then((r) => r.ok, () => false);
    if (ok && readFileSync(logFile, 'utf8').includes('Rapport is listening')) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`service at ${root} did not start:\n${readFileSync(logFile, 'utf8')}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const pid = child.pid ?? 0;
  return {
    pid,
    baseUrl,
    connectUrl: `http://127.0.0.1:${connectPort}`,
    cpuMs: () => processCpuMs(pid),
    async waitForLog(text, ms) {
      const until = Date.now() + ms;
      for (;;) {
        const line = readFileSync(logFile, 'utf8').split('\n').find((l) => l.includes(text));
        if (line !== undefined || Date.now() > until) return line ?? null;
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
