import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { cliEnvironment, type CliEnvironment } from '../helpers/cli-env.ts';
import { freePort, NODE_FLAGS, REPO_ROOT, startServiceProcess, waitUntil } from '../helpers/process.ts';

/**
 * SIGTERM stops the service cleanly whatever its clients do and whenever it comes: a client
 * trickling a request a byte at a time does not hold the stop past SHUTDOWN_TIMEOUT, and a
 * signal that arrives while the service starts stops it once it is up, lock removed.
 */

const onPostgres = Boolean(process.env.DATABASE_URL);
let cli: CliEnvironment;

beforeAll(async () => {
  cli = await cliEnvironment('signals');
});
afterAll(async () => {
  await cli.cleanup();
});

// Each test has its own processes, ports and data directory, and most of its time is spent waiting
// (for SHUTDOWN_TIMEOUT, a start, the 10 s a silent database is given): they wait side by side.
describe.concurrent('SIGTERM', () => {
  it('cuts off a client that trickles its request once SHUTDOWN_TIMEOUT has passed, and the next start finds the data directory free', async ({ expect }) => {
    const service = await startServiceProcess({ ...cli.env, SHUTDOWN_TIMEOUT: '2' });
    const port = Number(new URL(service.baseUrl).port);
    // A request whose body never ends: a byte every 300 ms keeps every timeout of an open
    // connection from firing, and a closing Node server no longer applies REQUEST_TIMEOUT.
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('POST /v1/analysis/text HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"text":"');
    const trickle = setInterval(() => socket.write('a'), 300);
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const exit = service.stop();
      const ended = await Promise.race([exit.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 20_000))]);
      expect(ended, service.logs()).toBe(true);
      expect(await exit).toBe(0);
      expect(service.logs()).toMatch(/Rapport stopped/);
      if (!onPostgres) expect(existsSync(path.join(cli.dataDir, 'rapport.lock'))).toBe(false);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
    const next = await startServiceProcess(cli.env);
    expect((await fetch(`${next.baseUrl}/healthz`)).status).toBe(200);
    expect(await next.stop()).toBe(0);
  }, 120_000);

  // The embedded database's lock file says when the start is under way.
  it.skipIf(onPostgres)('during start-up stops the service cleanly once it is up, leaving no lock', async ({ expect }) => {
    const dataDir = path.join(cli.dir, 'starting');
    const ports = { HOST: '127.0.0.1', PORT: String(await freePort()), CONNECT_PORT: String(await freePort()) };
    const env = { ...process.env, ...cli.env, ...ports, RAPPORT_DATA_DIR: dataDir };
    const child = spawn(process.execPath, [...NODE_FLAGS, path.join(REPO_ROOT, 'bin/rapport.mjs'), 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    const lock = path.join(dataDir, 'rapport.lock');
    expect(await waitUntil(() => existsSync(lock), 60_000), output).toBe(true);
    // The database is opening: nothing listens yet.
    expect(output).not.toMatch(/Rapport is listening/);
    child.kill('SIGTERM');
    expect(await exited, output).toEqual({ code: 0, signal: null });
    expect(output).toMatch(/"signal":"SIGTERM"[^\n]*shutting down/);
    expect(output).toMatch(/Rapport stopped/);
    expect(existsSync(lock)).toBe(false);
  }, 120_000);

  // The two commands wait out the same 10 s (each has its own silent server and ports).
  it.for(['serve', 'worker'])('during the start of `rapport %s` on a database server that accepts and never answers: the start gives up after 10 s, saying why, with status 1', { timeout: 120_000 }, async (command, { expect }) => {
    let connections = 0;
    const silent = createServer(() => (connections += 1));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const databasePort = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const ports = { HOST: '127.0.0.1', PORT: String(await freePort()), CONNECT_PORT: String(await freePort()) };
      const env = { ...process.env, ...ports, DATABASE_URL: `postgres://rapport@127.0.0.1:${databasePort}/rapport` };
      const child = spawn(process.execPath, [...NODE_FLAGS, path.join(REPO_ROOT, 'bin/rapport.mjs'), command], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      // Connected to the silent server: the start waits for an answer that never comes.
      expect(await waitUntil(() => connections > 0, 60_000)).toBe(true);
      child.kill('SIGTERM');
      const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 30_000))]);
      if (code === 'still running') child.kill('SIGKILL');
      expect(code).toBe(1);
      expect(output).toMatch(new RegExp(`PostgreSQL at 127\\.0\\.0\\.1:${databasePort} did not answer within 10 s \\(DATABASE_URL\\)`));
    } finally {
      silent.close();
    }
  });
});
