import type { AddressInfo } from 'node:net';
import type { Worker } from 'node:worker_threads';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OUTGOING_TEXT, RESUME_TEXT } from '../fixtures/texts.ts';
import { useTestService, createTestService, type TestService } from '../helpers/service.ts';

/**
 * Long texts are analysed in worker threads: the answers are those of the main thread, a
 * full queue is a 503 with Retry-After, /healthz keeps answering while maximum-size texts are
 * being analysed, and a thread that dies does not take the service with it.
 */

const MAX_CHARS = 100_000;

/** Ordinary prose with markup and a resume mixed in, cut to `length` characters. */
function longText(length: number): string {
  let text = '';
  while (text.length < length) text += `<p>${OUTGOING_TEXT}</p>\n${RESUME_TEXT}\n`;
  return text.slice(0, length);
}

async function withToken(service: TestService): Promise<{ authorization: string }> {
  return { authorization: `Bearer ${(await service.token('enterprise')).secret}` };
}

/**
 * Every text in a worker thread, and one thread whatever the machine: with a thread per core,
 * many cores could finish the 20 texts of the /healthz test before its probes are done, and the
 * probes would then see an idle service. Shared by the comparison with the main thread and that
 * test: a service and a thread (each loads its own copy of the model) fewer.
 */
let pooled: TestService;
let pooledUrl: string;
beforeAll(async () => {
  pooled = await createTestService({ RAPPORT_TEXT_INLINE_CHARS: '1', RAPPORT_TEXT_WORKERS: '1' });
  await pooled.base.listen({ host: '127.0.0.1', port: 0 });
  pooledUrl = `http://127.0.0.1:${(pooled.base.server.address() as AddressInfo).port}`;
});
afterAll(() => pooled.close());

describe('texts analysed in worker threads', () => {
  let inline: TestService;
  beforeAll(async () => {
    // Everything inline (threshold above the limit) against everything in a worker.
    inline = await createTestService({ RAPPORT_TEXT_INLINE_CHARS: String(MAX_CHARS + 1) });
  });
  afterAll(() => inline.close());

  it('give the same answers as on the main thread, through GET and POST', async () => {
    for (const text of [OUTGOING_TEXT, longText(20_000), longText(MAX_CHARS), 'a'.repeat(MAX_CHARS)]) {
      const answers = await Promise.all(
        [inline, pooled].map(async (service) => {
          const headers = await withToken(service);
          const post = await service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers, payload: { text } });
          expect(post.statusCode).toBe(200);
          return post.json();
        }),
      );
      expect(answers[1]).toEqual(answers[0]);
    }
    const text = longText(6_000);
    const [one, two] = await Promise.all(
      [inline, pooled].map(async (service) => {
        const get = await service.base.inject({ url: `/v1/analysis/text?text=${encodeURIComponent(text)}`, headers: await withToken(service) });
        expect(get.statusCode).toBe(200);
        return get.json();
      }),
    );
    expect(one.data.traits).toBeDefined();
    expect(two).toEqual(one);
  });
});

describe('a full queue of long texts', () => {
  const service = useTestService({ RAPPORT_TEXT_WORKERS: '1', RAPPORT_TEXT_MAX_QUEUE: '1' });

  it('answers 503 unavailable with Retry-After, and the texts it took are answered', async () => {
    const headers = await withToken(service);
    const text = longText(MAX_CHARS);
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers, payload: { text } })),
    );
    const refused = responses.filter((response) => response.statusCode === 503);
    const answered = responses.filter((response) => response.statusCode === 200);
    expect(refused.length).toBeGreaterThan(0);
    expect(answered.length).toBeGreaterThanOrEqual(2); // one running, one queued
    expect(refused.length + answered.length).toBe(8);
    for (const response of refused) {
      expect(response.json().error.code).toBe('unavailable');
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Short texts never wait in the queue.
    const short = await service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers, payload: { text: OUTGOING_TEXT } });
    expect(short.statusCode).toBe(200);
  });
});

describe('/healthz while maximum-size texts are analysed', () => {
  let service: TestService;
  let base: string;
  beforeAll(() => {
    // One text thread (see `pooled`), started before the texts are sent.
    service = pooled;
    base = pooledUrl;
    service.ctx.textPool.warm();
  });

  /** Long prose with an adversarial run in its middle (a shape alone is rejected as junk early, which costs little). */
  function adversarialTexts(): string[] {
    const runs = ['a'.repeat(20_000), 'ab'.repeat(10_000), '.'.repeat(20_000), '<!--'.repeat(5_000), 'a-'.repeat(10_000)];
    return runs.map((run) => {
      const prose = longText((MAX_CHARS - run.length) / 2);
      return `${prose} ${run} ${prose}`.slice(0, MAX_CHARS);
    });
  }

  // How long /healthz takes meanwhile, against its idle time, is measured by `npm run bench`
  // (bench/worker-threads.ts), not asserted here.
  it('answers with 20 texts of 100,000 characters in flight, all of them analysed in the worker thread', async () => {
    const headers = { ...(await withToken(service)), 'content-type': 'application/json' };
    const shapes = adversarialTexts();
    const before = service.ctx.textPool.pooledTexts;
    let finished = 0;
    const inFlight = Array.from({ length: 20 }, (_, i) =>
      fetch(`${base}/v1/analysis/text`, { method: 'POST', headers, body: JSON.stringify({ text: shapes[i % shapes.length] }) }).then(async (response) => {
        const body = (await response.json()) as { data?: unknown };
        finished++;
        return { status: response.status, data: body.data };
      }),
    );
    // Once all 20 were handed to the worker thread.
    const deadline = performance.now() + 60_000;
    while (service.ctx.textPool.pooledTexts - before < 20 && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(service.ctx.textPool.pooledTexts - before).toBe(20);
    const probes: number[] = [];
    for (let i = 0; i < 5; i++) probes.push((await fetch(`${base}/healthz`)).status);
    // The probes were answered while texts were still being analysed; otherwise the test proved nothing.
    const stillBusy = finished < 20;
    const answers = await Promise.all(inFlight);
    expect(probes).toEqual([200, 200, 200, 200, 200]);
    expect(stillBusy).toBe(true);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.data).toBeTypeOf('object');
    }
  });
});

describe('a text thread that dies', () => {
  let service: TestService;
  let headers: { authorization: string };
  beforeEach(async () => {
    service = await createTestService({ RAPPORT_TEXT_INLINE_CHARS: '1', RAPPORT_TEXT_WORKERS: '1' });
    headers = await withToken(service);
  });
  afterEach(() => service.close());

  /** The worker threads this process starts while `work` runs (Node reports each on `process`). */
  async function threadsStartedBy<T>(work: (started: Worker[]) => Promise<T>): Promise<T> {
    const started: Worker[] = [];
    const onWorker = (worker: Worker) => started.push(worker);
    process.on('worker', onWorker);
    try {
      return await work(started);
    } finally {
      process.off('worker', onWorker);
    }
  }

  const analyse = (text: string) => service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers, payload: { text } });

  /**
   * Ends the next thread with `end` once `count` texts are in the pool, while the thread still
   * loads (its model takes a few hundred ms; the texts arrive within milliseconds). Ended as soon
   * as it is made, a text that reached the pool only after that (on PostgreSQL each request waits
   * for its token and metering queries) made piscina start a fresh thread itself, and nothing
   * failed: right, but not what these tests are about. Resolves whether the thread was still
   * loading when it was ended (no message from it yet).
   */
  function endWhileLoading(count: number, end: (worker: Worker) => void): Promise<boolean> {
    const before = service.ctx.textPool.pooledTexts;
    return new Promise((resolve) => {
      process.once('worker', (worker: Worker) => {
        let ready = false;
        worker.once('message', () => {
          ready = true;
        });
        const deadline = performance.now() + 10_000;
        const check = () => {
          if (service.ctx.textPool.pooledTexts - before < count && performance.now() < deadline) return void setImmediate(check);
          end(worker);
          resolve(!ready);
        };
        check();
      });
    });
  }

  it('with an uncaught error while idle: the service keeps answering, and the next text gets a fresh thread', async () => {
    await threadsStartedBy(async (started) => {
      const response = await analyse(RESUME_TEXT);
      expect(response.statusCode).toBe(200);
      expect(started).toHaveLength(1);
      // What piscina sees when the thread throws outside a task; it then terminates the thread.
      const thread = started[0] as Worker;
      const exited = new Promise((resolve) => thread.once('exit', resolve));
      expect(() => thread.emit('error', new Error('thrown outside a task'))).not.toThrow();
      await exited;
    });
    expect(service.ctx.textPool.threadCount).toBe(0);
    expect((await service.base.inject({ url: '/healthz' })).statusCode).toBe(200);
    // Another text: the route keeps recent answers, and the same one would not reach the pool.
    const pooledBefore = service.ctx.textPool.pooledTexts;
    const after = await analyse(OUTGOING_TEXT);
    expect(after.statusCode).toBe(200);
    expect(after.json().data.traits).toBeDefined();
    expect(service.ctx.textPool.pooledTexts).toBe(pooledBefore + 1);
    expect(service.ctx.textPool.threadCount).toBe(1);
  });

  it('while analysing: that text fails, and the one waiting behind it is answered by a fresh thread', async () => {
    const [running, waiting] = await threadsStartedBy(async (started) => {
      const deadline = performance.now() + 20_000;
      // The second text is sent once the first is in the pool: on PostgreSQL each request first
      // waits for its token and metering queries, and the second could reach the pool first.
      const pooledBefore = service.ctx.textPool.pooledTexts;
      const first = analyse(longText(MAX_CHARS));
      while (service.ctx.textPool.pooledTexts === pooledBefore && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1));
      const sent = [first, analyse(longText(MAX_CHARS - 1))];
      while (started.length === 0 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1));
      // The thread's first message says it is ready; piscina's own listener runs before this one
      // and hands it the first text at once, so the thread is ended while that text is its own.
      // Ended in that same turn of the event loop: a text of MAX_CHARS takes only ~20 ms, and
      // even the turn an awaited promise takes could let it finish first.
      const thread = started[0] as Worker;
      const queuedWhenEnded = await new Promise<number>((resolve, reject) =>
        thread.once('message', () => {
          const queued = service.ctx.textPool.queued;
          thread.terminate().then(() => resolve(queued), reject);
        }),
      );
      expect(queuedWhenEnded).toBe(1);
      return Promise.all(sent);
    });
    expect(running?.statusCode).toBe(500);
    expect(waiting?.statusCode).toBe(200);
    expect(waiting?.json().data.traits).toBeDefined();
  });

  it('that cannot start: one waiting text fails with the cause, the others are answered by a fresh thread', async () => {
    const responses = await threadsStartedBy(async (started) => {
      // What piscina sees when a thread fails while it loads, before it takes any text.
      const loading = endWhileLoading(3, (worker) => worker.emit('error', new Error('could not load the text worker')));
      const answered = await Promise.all([analyse(RESUME_TEXT), analyse(RESUME_TEXT), analyse(RESUME_TEXT)]);
      expect(await loading).toBe(true);
      expect(started).toHaveLength(2); // the one that failed, and the fresh one
      return answered;
    });
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.sort()).toEqual([200, 200, 500]);
    const [failed, ...answered] = [...responses].sort((a, b) => b.statusCode - a.statusCode);
    expect(failed?.json().error.code).toBe('internal');
    expect(answered[0]?.json().data.traits).toBeDefined();
    expect(answered[1]?.json()).toEqual(answered[0]?.json());
    // And the next text is answered as usual.
    expect((await analyse(OUTGOING_TEXT)).statusCode).toBe(200);
  });

  it('that exits while it loads, with no error: one waiting text fails, the others are answered by a fresh thread', async () => {
    const responses = await threadsStartedBy(async (started) => {
      // Ended before it is ready: piscina reports no error for a thread that exits holding no text.
      const loading = endWhileLoading(3, (worker) => void worker.terminate());
      const answered = await Promise.all([analyse(RESUME_TEXT), analyse(RESUME_TEXT), analyse(RESUME_TEXT)]);
      expect(await loading).toBe(true);
      expect(started).toHaveLength(2);
      return answered;
    });
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.sort()).toEqual([200, 200, 500]);
    const answered = responses.filter((response) => response.statusCode === 200);
    expect(answered[0]?.json().data.traits).toBeDefined();
    expect((await analyse(OUTGOING_TEXT)).statusCode).toBe(200);
  });
});
