import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTGOING_TEXT, RESUME_TEXT } from '../fixtures/texts.ts';
import { createTestService, type TestService } from '../helpers/service.ts';

/**
 * Long texts are analysed in worker threads: the answers are those of the main thread, a
 * full queue is a 503 with Retry-After, and /healthz keeps answering at its idle speed while
 * maximum-size texts are being analysed.
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

describe('texts analysed in worker threads', () => {
  let inline: TestService;
  let pooled: TestService;
  beforeAll(async () => {
    // Everything inline (threshold above the limit) against everything in a worker.
    inline = await createTestService({ RAPPORT_TEXT_INLINE_CHARS: String(MAX_CHARS + 1) });
    pooled = await createTestService({ RAPPORT_TEXT_INLINE_CHARS: '1', RAPPORT_TEXT_WORKERS: '1' });
  });
  afterAll(async () => {
    await inline.close();
    await pooled.close();
  });

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
  let service: TestService;
  beforeAll(async () => {
    service = await createTestService({ RAPPORT_TEXT_WORKERS: '1', RAPPORT_TEXT_MAX_QUEUE: '1' });
  });
  afterAll(() => service.close());

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
  beforeAll(async () => {
    service = await createTestService();
    await service.base.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(service.base.server.address() as AddressInfo).port}`;
    service.ctx.textPool.warm();
  });
  afterAll(() => service.close());

  /** Milliseconds for one GET /healthz over a real connection. */
  async function probe(): Promise<number> {
    const started = performance.now();
    const response = await fetch(`${base}/healthz`);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    return performance.now() - started;
  }

  function median(values: number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? 0;
  }

  async function probes(count: number): Promise<number[]> {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      times.push(await probe());
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return times;
  }

  it('answers within 50 ms of its idle time with 20 texts of 100,000 characters in flight', async () => {
    const headers = { ...(await withToken(service)), 'content-type': 'application/json' };
    // Warm up: connections, the route, a worker's first text.
    await probes(5);
    await fetch(`${base}/v1/analysis/text`, { method: 'POST', headers, body: JSON.stringify({ text: longText(MAX_CHARS) }) }).then((r) => r.arrayBuffer());
    const idle = median(await probes(9));

    // Adversarial shapes beside ordinary long prose, all at the maximum size.
    const shapes = ['a'.repeat(MAX_CHARS), 'ab'.repeat(MAX_CHARS / 2), '.'.repeat(MAX_CHARS), '<!--'.repeat(MAX_CHARS / 4), longText(MAX_CHARS)];
    let finished = 0;
    const inFlight = Array.from({ length: 20 }, (_, i) =>
      fetch(`${base}/v1/analysis/text`, { method: 'POST', headers, body: JSON.stringify({ text: shapes[i % shapes.length] }) }).then(async (response) => {
        await response.arrayBuffer();
        finished++;
        return response.status;
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    const busy = await probes(9);
    const stillBusy = finished < 20;
    const statuses = await Promise.all(inFlight);

    expect(statuses.every((status) => status === 200)).toBe(true);
    // The probes ran while analyses were still going on; otherwise the test proved nothing.
    expect(stillBusy).toBe(true);
    expect(median(busy), `idle ${idle.toFixed(1)} ms, busy ${busy.map((t) => t.toFixed(1)).join(', ')} ms`).toBeLessThan(idle + 50);
  });
});
