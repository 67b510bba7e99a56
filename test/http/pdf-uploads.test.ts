import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { connect, type AddressInfo, type Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTGOING_TEXT } from '../fixtures/texts.ts';
import { multipartFile, textPdf } from '../fixtures/pdf.ts';
import { useTestService, createTestService, type TestService } from '../helpers/service.ts';

/** No worker: every upload stays in progress until the test lets one run. */
const service = useTestService({ RAPPORT_IN_PROCESS_WORKER: 'false', RAPPORT_PDF_MAX_PENDING: '5' });
let pdf: Uint8Array;
beforeAll(async () => {
  pdf = await textPdf(OUTGOING_TEXT);
});

const spoolFiles = () => (existsSync(service.ctx.spool.dir) ? readdirSync(service.ctx.spool.dir).sort() : []);

async function send(secret: string, bytes = pdf) {
  const body = await multipartFile('file', bytes);
  return service.base.inject({
    method: 'POST',
    url: '/v1/analysis/pdf',
    headers: { authorization: `Bearer ${secret}`, 'content-type': body.contentType },
    payload: body.payload,
  });
}

describe('PDF uploads', () => {
  it('20 simultaneous uploads against a cap of 5 pending: exactly 5 are accepted, the rest get 429', async () => {
    const token = await service.token('enterprise');
    const responses = await Promise.all(Array.from({ length: 20 }, () => send(token.secret)));
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    const pending = await service.ctx.db.query<{ n: number | string }>("SELECT count(*) AS n FROM analyses WHERE token_id = $1 AND status = 'processing'", [token.id]);
    expect(Number(pending[0]?.n)).toBe(5);
    // Refused uploads leave nothing behind on disk.
    expect(spoolFiles().filter((name) => name.endsWith('.part'))).toEqual([]);
  });

  it('an upload waits on disk (embedded) or in the database in 256 KiB pieces (PostgreSQL) until its analysis ends, then it goes', async () => {
    const token = await service.token('enterprise');
    // Past two pieces, so the pieces are written and read back in order (pdf.js reads past trailing spaces).
    const bytes = new Uint8Array(Buffer.concat([Buffer.from(pdf), Buffer.alloc(600_000, 0x20)]));
    const response = await send(token.secret, bytes);
    expect(response.statusCode).toBe(200);
    const id = response.json().data.id as string;
    const pieces = () => service.ctx.db.query<{ seq: number; size: number | string }>('SELECT seq, length(bytes) AS size FROM analysis_input_chunks WHERE analysis_id = $1 ORDER BY seq', [id]);
    const stored = await service.ctx.db.query<{ input: Uint8Array | null }>('SELECT input FROM analyses WHERE id = $1', [id]);
    expect(stored[0]?.input).toBeNull();
    if (service.ctx.db.kind === 'embedded') {
      expect(await pieces()).toEqual([]);
      expect(spoolFiles()).toContain(`${id}.pdf`);
      expect(statSync(path.join(service.ctx.spool.dir, `${id}.pdf`)).size).toBe(bytes.length);
    } else {
      // Any worker machine can read the pieces; this process keeps no copy.
      const rows = await pieces();
      expect(rows.map((row) => row.seq)).toEqual([0, 1, 2]);
      expect(rows.map((row) => Number(row.size))).toEqual([262_144, 262_144, bytes.length - 2 * 262_144]);
      expect(spoolFiles()).not.toContain(`${id}.pdf`);
    }

    // A process that starts after a crash finds the work and finishes it.
    const { createContext } = await import('../../src/context.ts');
    const { createLogger } = await import('../../src/shared/logger.ts');
    const next = createContext(service.ctx.config, service.ctx.db, createLogger('silent'), { runJobs: true });
    try {
      const deadline = performance.now() + 25_000;
      while (performance.now() < deadline) {
        const rows = await service.ctx.db.query<{ status: string }>('SELECT status FROM analyses WHERE id = $1', [id]);
        if (rows[0]?.status !== 'processing') break;
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await next.shutdown();
    }
    const result = await service.base.inject({ url: `/v1/analysis/${id}`, headers: { authorization: `Bearer ${token.secret}` } });
    expect(result.json().data.status).toBe('complete');
    expect(spoolFiles()).not.toContain(`${id}.pdf`);
    expect(await pieces()).toEqual([]);
  });

  it('a raw upload over the size limit is refused with 413 and leaves no file', async () => {
    const token = await service.token('enterprise');
    const before = spoolFiles();
    const tooBig = Buffer.concat([Buffer.from(pdf), Buffer.alloc(service.ctx.pdfLimits.maxBytes)]);
    const response = await service.base.inject({
      method: 'POST',
      url: '/v1/analysis/pdf',
      headers: { authorization: `Bearer ${token.secret}`, 'content-type': 'application/pdf' },
      payload: tooBig,
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().error.message).toMatch(/PDF is larger than 10 MB/);
    const multipart = await send(token.secret, tooBig);
    expect(multipart.statusCode).toBe(413);
    expect(spoolFiles()).toEqual(before);
  });

  it('leftovers are swept: files of analyses that ended and stale partial uploads', async () => {
    const { dir } = service.ctx.spool;
    writeFileSync(path.join(dir, 'an_finished_long_ago.pdf'), 'x');
    const stale = path.join(dir, 'deadbeef.part');
    writeFileSync(stale, 'x');
    const { utimesSync } = await import('node:fs');
    utimesSync(stale, new Date(Date.now() - 3600_000), new Date(Date.now() - 3600_000));
    writeFileSync(path.join(dir, 'fresh.part'), 'x');
    const keep = new Set(spoolFiles().filter((n) => n.startsWith('an_') && n !== 'an_finished_long_ago.pdf').map((n) => n.replace(/\.pdf$/, '')));
    const removed = await service.ctx.spool.sweep(keep);
    expect(removed).toBe(2);
    expect(spoolFiles()).toContain('fresh.part');
    expect(spoolFiles()).not.toContain('an_finished_long_ago.pdf');
    expect(spoolFiles()).not.toContain('deadbeef.part');
  });
});

describe('uploads being received at once', () => {
  let gated: TestService;
  let base: string;
  /** Four places, so a token's share is two; a pending cap no test here reaches. */
  let shared: TestService;
  let sharedBase: string;
  const listening = async (service: TestService) => {
    await service.base.listen({ host: '127.0.0.1', port: 0 });
    return `http://127.0.0.1:${(service.base.server.address() as AddressInfo).port}`;
  };
  beforeAll(async () => {
    // Five places (a token's share is three) and a pending cap of two, reached first.
    gated = await createTestService({ RAPPORT_IN_PROCESS_WORKER: 'false', RAPPORT_UPLOADS_AT_ONCE: '5', RAPPORT_PDF_MAX_PENDING: '2' });
    base = await listening(gated);
    shared = await createTestService({ RAPPORT_IN_PROCESS_WORKER: 'false', RAPPORT_UPLOADS_AT_ONCE: '4', RAPPORT_PDF_MAX_PENDING: '50' });
    sharedBase = await listening(shared);
  });
  afterAll(async () => {
    await gated.close();
    await shared.close();
  });

  /** Headers and 64 KB of a declared 9 MB PDF, then nothing: the upload stays open until cut off. */
  function stalledUpload(secret: string, to = base): Socket {
    const socket = connect(Number(new URL(to).port), '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(`POST /v1/analysis/pdf HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${secret}\r\nContent-Type: application/pdf\r\nContent-Length: ${9 * 1024 * 1024}\r\n\r\n`);
    socket.write(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(64 * 1024, 0x20)]));
    return socket;
  }

  async function receiving(count: number, service = gated): Promise<void> {
    for (let i = 0; i < 200 && service.ctx.spool.receiving !== count; i += 1) await new Promise((r) => setTimeout(r, 25));
    expect(service.ctx.spool.receiving).toBe(count);
  }

  const post = (secret: string, to = base) =>
    fetch(`${to}/v1/analysis/pdf`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/pdf' }, body: Buffer.from(pdf) });

  it('count toward the token’s pending cap; past the process’s limit the answer is 503 with Retry-After, before the body, and the connection closes', async () => {
    const one = await gated.token('enterprise');
    const two = await gated.token('enterprise');
    const stalled = [stalledUpload(one.secret), stalledUpload(one.secret)];
    await receiving(2);
    // Two of token one's uploads are arriving: with a cap of 2 pending, a third is refused at once.
    const third = await post(one.secret);
    expect(third.status).toBe(429);
    const refusal = (await third.json()) as { error: { code: string; message: string } };
    expect(refusal.error.code).toBe('rate_limited');
    expect(refusal.error.message).toContain('reached its limit of 2 PDF analyses in progress');
    // Another token is not held up by them.
    const other = await post(two.secret);
    expect(other.status).toBe(200);

    // All five places taken: the next upload, of any token, is told to come back.
    const three = await gated.token('enterprise');
    stalled.push(stalledUpload(two.secret), stalledUpload(three.secret), stalledUpload(three.secret));
    await receiving(5);
    const busy = await post(two.secret);
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('2');
    expect(busy.headers.get('connection')).toBe('close');
    expect(((await busy.json()) as { error: { code: string } }).error.code).toBe('unavailable');

    // Uploads cut off give their places back, and leave no partial file.
    for (const socket of stalled) socket.destroy();
    await receiving(0);
    expect((await post(one.secret)).status).toBe(200);
    const parts = () => (existsSync(gated.ctx.spool.dir) ? readdirSync(gated.ctx.spool.dir).filter((name) => name.endsWith('.part')) : []);
    for (let i = 0; i < 100 && parts().length > 0; i += 1) await new Promise((r) => setTimeout(r, 25));
    expect(parts()).toEqual([]);
  });

  it('one token may take half of the places: past its share it gets 429 before the body, and other tokens still upload', async () => {
    const greedy = await shared.token('enterprise');
    const other = await shared.token('enterprise');
    const stalled = [stalledUpload(greedy.secret, sharedBase), stalledUpload(greedy.secret, sharedBase)];
    await receiving(2, shared);
    const third = await post(greedy.secret, sharedBase);
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('2');
    expect(third.headers.get('connection')).toBe('close');
    const body = (await third.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('rate_limited');
    expect(body.error.message).toContain('already sending 2 uploads at once');
    // The other half is the other tokens': two of theirs arrive beside the two held.
    stalled.push(stalledUpload(other.secret, sharedBase));
    await receiving(3, shared);
    expect((await post(other.secret, sharedBase)).status).toBe(200);
    for (const socket of stalled) socket.destroy();
    await receiving(0, shared);
    expect((await post(greedy.secret, sharedBase)).status).toBe(200);
  });
});
