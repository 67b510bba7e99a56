import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(REPO_ROOT, 'bin/rapport.mjs');

/**
 * Node options for the `rapport` processes the tests start (`node --liftoff-only bin/rapport.mjs …`).
 * `--liftoff-only` compiles the embedded database's WebAssembly with V8's baseline compiler only,
 * skipping the optimising tier-up a short process never profits from: a CLI command then costs
 * about 3.5 s of CPU instead of 5.5 s. Measured again (seventh session, bench/process-starts.ts,
 * load 9–11): a `serve` start-stop ~5.0 s with it against ~6.9 s without, `tokens list` ~2.1 s
 * against ~3.7 s (bin/v8-flags.mjs now sets it for short commands itself). Only the machine code V8 picks changes, not what
 * the program does. The service itself runs with V8's defaults (a long-running process gains
 * from the optimised code).
 */
export const NODE_FLAGS: readonly string[] = ['--liftoff-only'];

/** The first port of the kernel's range for outgoing connections (Linux), 32768 where unknown. */
function firstEphemeralPort(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 11_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * The lowest port handed out. fetch() refuses the ports on the Fetch standard's "bad ports" list
 * with "bad port" before it connects; the highest of them is 10080, so the range starts above it
 * (a CI run once drew 10080 and its test failed).
 */
const LOWEST_PORT = 10_081;

/**
 * A port for a child process to listen on, free when asked. It is chosen below the kernel's
 * ephemeral range: a port from that range can meanwhile become the source port of an outgoing
 * connection (this process's own polls of it included: a connection to a port nobody listens
 * on yet can connect to itself), and the child then fails with EADDRINUSE.
 */
export async function freePort(): Promise<number> {
  const high = firstEphemeralPort();
  for (let i = 0; i < 100; i += 1) {
    const port = LOWEST_PORT + Math.floor(Math.random() * (high - LOWEST_PORT));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port found between ${LOWEST_PORT} and ${high}`);
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `rapport ARGS` the way an operator would, with the given environment. */
export function runCli(args: string[], env: Record<string, string>, stdin?: string, cwd: string = REPO_ROOT): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [...NODE_FLAGS, BIN, ...args], { env: { ...process.env, ...env }, cwd, timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error && typeof error.code === 'number' ? error.code : error ? 1 : 0;
      resolve({ code, stdout, stderr });
    });
    if (stdin !== undefined) child.stdin?.end(stdin);
  });
}

export interface ServiceProcess {
  child: ChildProcess;
  baseUrl: string;
  connectUrl: string;
  logs(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/**
 * `node bin/rapport.mjs serve [ARGS]`, or `npm start` as an operator or a process manager runs it
 * (then `serveArgs` are not used).
 */
export async function startServiceProcess(
  env: Record<string, string>,
  serveArgs: string[] = [],
  launcher: 'node' | 'npm' = 'node',
  options: ServiceOutput = {},
): Promise<ServiceProcess> {
  // Ports are free when chosen, but another test file running at the same time may take one
  // before the child listens: then the child says EADDRINUSE, and a new pair is tried.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnFreshPorts(env, serveArgs, launcher, options);
    } catch (error) {
      const portsOfOurs = !env.PORT && !env.CONNECT_PORT;
      if (!(error instanceof PortTakenError) || !portsOfOurs || attempt >= 3) throw error;
    }
  }
}

class PortTakenError extends Error {}

export interface ServiceOutput {
  /**
   * Write the service's stdout and stderr to this file instead of keeping them in a string
   * here: a benchmark's request logs (a line a request) would otherwise cost this process CPU
   * the service's own processes compete with, and a string that grows without end.
   */
  logFile?: string;
}

async function startOnFreshPorts(env: Record<string, string>, serveArgs: string[], launcher: 'node' | 'npm', options: ServiceOutput): Promise<ServiceProcess> {
  const port = await freePort();
  const connectPort = await freePort();
  const [command, args] = launcher === 'npm' ? ['npm', ['start', '--silent']] : [process.execPath, [...NODE_FLAGS, BIN, 'serve', ...serveArgs]];
  // Both streams to the log file, emptied first (a retry on other ports must not read the last
  // try's "listening"), or pipes read by this process.
  const fd = options.logFile ? openSync(options.logFile, 'w') : null;
  let child: ChildProcess;
  try {
    child = spawn(command, args, {
      env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), CONNECT_PORT: String(connectPort), ...env },
      cwd: REPO_ROOT,
      stdio: fd === null ? ['ignore', 'pipe', 'pipe'] : ['ignore', fd, fd],
    });
  } finally {
    if (fd !== null) closeSync(fd);
  }
  let buffered = '';
  child.stdout?.on('data', (chunk: Buffer) => (buffered += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (buffered += chunk.toString()));
  const { logFile } = options;
  const logs = logFile ? () => readFileSync(logFile, 'utf8') : () => buffered;
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    const output = logs();
    if (child.exitCode !== null) {
      const message = `service exited early:\n${output}`;
      const ours = output.includes('EADDRINUSE') && (output.includes(`:${port}`) || output.includes(`:${connectPort}`));
      throw ours ? new PortTakenError(message) : new Error(message);
    }
    if (output.includes('Rapport is listening') && (await healthy(baseUrl))) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`service did not start:\n${logs()}`);
    }
    await outputOrExit(child, 200);
  }
  return {
    child,
    baseUrl,
    connectUrl: `http://127.0.0.1:${connectPort}`,
    logs,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}

async function healthy(baseUrl: string): Promise<boolean> {
  try {
    return (await fetch(`${baseUrl}/healthz`)).ok;
  } catch {
    return false; // not listening yet
  }
}

/**
 * Resolves when the child writes to a pipe or exits, or after `ms` at the latest (its output
 * goes to a file): the start checks again as soon as "Rapport is listening" can be there,
 * rather than up to a polling interval later. Listeners added before these keep the output.
 */
function outputOrExit(child: ChildProcess, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      child.stdout?.off('data', done);
      child.stderr?.off('data', done);
      child.off('exit', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    child.stdout?.on('data', done);
    child.stderr?.on('data', done);
    child.on('exit', done);
  });
}

/** Whether a process id is still alive (signal 0 only checks). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pids of a process's children, from ps (Linux, where the service runs); none yet is []. */
export function childrenOf(pid: number): number[] {
  try {
    const out = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).trim();
    return out === '' ? [] : out.split(/\s+/).map(Number);
  } catch {
    return []; // ps exits 1 when it lists nothing
  }
}

/** Polls `check` every 100 ms for up to `ms`; its last answer. */
export async function waitUntil(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

/** A CLI command's stderr without the note it prints when it creates the embedded database (src/cli/executor.ts). */
export function withoutNewDatabaseNote(stderr: string): string {
  return stderr.replace(/^rapport: there was no database in .*: created a new one\..*\n/m, '');
}
