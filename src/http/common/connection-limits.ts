import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Socket } from 'node:net';
import type { HttpLimits } from '../../config.ts';

/**
 * The Fastify and Node server options for the timeouts in `limits`. Node checks the request
 * and header deadlines on a timer (every 30 s by default); a tighter interval makes a stalled
 * upload end close to REQUEST_TIMEOUT rather than up to 30 s after it.
 */
export function serverTimeoutOptions(limits: HttpLimits) {
  return {
    requestTimeout: limits.requestTimeoutMs,
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    maxRequestsPerSocket: limits.maxRequestsPerConnection,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
    },
  };
}

/**
 * Caps open connections: in all (`server.maxConnections`: Node closes the ones beyond it at
 * once) and per client address, so one client holding sockets open cannot use up the
 * process's file descriptors and lock everyone else out.
 */
export function limitConnections(server: Server, limits: HttpLimits): void {
  server.maxConnections = limits.maxConnections;
  if (limits.maxConnectionsPerClient === 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > limits.maxConnectionsPerClient) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

/**
 * Closes an app: no new connections, idle ones closed at once, requests in flight finish, and
 * whatever is still open `graceMs` later is cut off. Once a Node server is closing it no longer
 * enforces the request and header timeouts, so without the deadline one stalled upload held the
 * stop (and the embedded database's lock) until IDLE_TIMEOUT, and a client sending a byte now
 * and then held it for ever.
 */
export async function closeWithin(app: FastifyInstance, graceMs: number): Promise<void> {
  const deadline = setTimeout(() => app.server.closeAllConnections(), graceMs);
  try {
    await app.close();
  } finally {
    clearTimeout(deadline);
  }
}
