import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestService, type TestService } from '../helpers/service.ts';

let service: TestService;
let port: number;
let secret: string;
const logLines: string[] = [];
beforeAll(async () => {
  service = await createTestService(
    { RAPPORT_IN_PROCESS_WORKER: 'false', REQUEST_TIMEOUT: '2', HEADERS_TIMEOUT: '1', MAX_CONNECTIONS_PER_CLIENT: '3', LOG_LEVEL: 'info' },
    { logs: { write: (line: string) => void logLines.push(line) } },
  );
  await service.base.listen({ host: '127.0.0.1', port: 0 });
  port = (service.base.server.address() as AddressInfo).port;
  secret = (await service.token('enterprise')).secret;
});
afterAll(() => service.close());

/** Opens a raw connection, sends `data`, and resolves with what came back once the server closed it. */
function rawExchange(data: string, giveUpMs = 15_000): Promise<{ answer: string; closedAfterMs: number; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1', () => socket.write(data));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ answer, closedAfterMs: Date.now() - started, socket }));
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`still open after ${giveUpMs} ms`));
    }, giveUpMs);
  });
}

describe('timeouts and connection limits', () => {
  it('an upload that stops halfway through its body gets 408 and a closed socket within REQUEST_TIMEOUT', async () => {
    const head =
      `POST /v1/analysis/pdf HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${secret}\r\n` +
      'Content-Type: application/pdf\r\nContent-Length: 100000\r\n\r\n%PDF-1.7\n';
    const { answer, closedAfterMs } = await rawExchange(head + 'x'.repeat(50_000));
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('"code":"request_timeout"');
    expect(closedAfterMs).toBeLessThan(6_000);
    // Nothing of the abandoned upload stays on disk.
    const { readdirSync, existsSync } = await import('node:fs');
    const left = () => (existsSync(service.ctx.spool.dir) ? readdirSync(service.ctx.spool.dir).filter((n) => n.endsWith('.part')) : []);
    for (let i = 0; i < 40 && left().length > 0; i += 1) await new Promise((r) => setTimeout(r, 50));
    expect(left()).toEqual([]);
    // A timed-out upload is the client's doing: logged as its request, not as a fault of ours.
    expect(logLines.filter((line) => (JSON.parse(line) as { level: number }).level >= 50)).toEqual([]);
  });

  it('headers that never finish are cut off too', async () => {
    const { answer, closedAfterMs } = await rawExchange('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfterMs).toBeLessThan(5_000);
  });

  it('one client address may hold only MAX_CONNECTIONS_PER_CLIENT connections; others still get through', async () => {
    const open: Socket[] = [];
    const opened = (): Promise<Socket> =>
      new Promise((resolve) => {
        const socket = connect(port, '127.0.0.1', () => resolve(socket));
        socket.on('error', () => undefined);
        open.push(socket);
      });
    try {
      for (let i = 0; i < 3; i += 1) await opened();
      const fourth = await opened();
      const closed = await new Promise<boolean>((resolve) => {
        fourth.once('close', () => resolve(true));
        setTimeout(() => resolve(false), 2000);
      });
      expect(closed).toBe(true);
      // Once those go, the client may connect again.
      for (const socket of open) socket.destroy();
      // The server counts them gone once it has seen them close: a few ms, later on a loaded machine.
      let status = 0;
      const deadline = performance.now() + 5000;
      while (status !== 200 && performance.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        status = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.status, () => 0);
      }
      expect(status).toBe(200);
    } finally {
      for (const socket of open) socket.destroy();
    }
  });
});
