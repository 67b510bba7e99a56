import type { FastifyInstance } from 'fastify';

/** Work put off while routes are declared: a serializer or validator to build (serializer-warm-up.ts, body-validation.ts). */
export type ReadyTask = () => void;

/**
 * Runs the queued tasks, queue by queue, as the app becomes ready (Fastify's onReady: every
 * route's schemas have been handed to the compilers by then), so that what they cost is paid
 * before the app listens rather than by a first request, and a task that throws (a schema a
 * compiler refuses) fails `ready()`. The app calls this once, with the queues its options ask
 * for; with none, nothing is added.
 */
export function runWhenReady(app: FastifyInstance, queues: ReadyTask[][]): void {
  if (queues.length === 0) return;
  app.addHook('onReady', (done) => {
    try {
      for (const queue of queues) for (const task of queue.splice(0)) task();
      done();
    } catch (error) {
      done(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
