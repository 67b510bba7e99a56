import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  path: string;
  /** performance.now() when it arrived. */
  at: number;
}

/** How to answer: a status (and headers), or never (the sender's timeout). */
export type Answer = { status: number; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  /** http://127.0.0.1:<port>/hook */
  url: string;
  port: number;
  received: Received[];
  /** Decides each answer (200 by default); given the request and how many came before it. */
  answer: (request: Received, index: number) => Answer;
  /** Resolves with the first `n` requests once they are in, or rejects after `ms`. */
  waitFor(n: number, ms?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** A webhook receiver on loopback: records what it gets and answers as told. The only place webhooks go in tests. */
export async function startReceiver(answer: Receiver['answer'] = () => ({ status: 200 })): Promise<Receiver> {
  const hanging = new Set<ServerResponse>();
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const got: Received = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), path: request.url ?? '', at: performance.now() };
      const index = received.length;
      received.push(got);
      for (const wake of waiters.splice(0)) wake();
      const reply = receiver.answer(got, index);
      if (reply === 'hang') {
        hanging.add(response);
        response.on('close', () => hanging.delete(response));
        return;
      }
      response.writeHead(reply.status, reply.headers ?? {});
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    answer,
    async waitFor(n, ms = 20_000) {
      const deadline = Date.now() + ms;
      while (received.length < n) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`the receiver got ${received.length} requests, not ${n}, within ${ms} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return received.slice(0, n);
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return receiver;
}
