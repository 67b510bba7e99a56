import fc from 'fast-check';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { redactUrl, redactUrlFully } from '../../src/shared/logger.ts';
import { useTestService } from '../helpers/service.ts';

const lines: string[] = [];
const service = useTestService({ LOG_LEVEL: 'info' }, { logs: { write: (line: string) => void lines.push(line) } });
let baseUrl: string;

beforeAll(async () => {
  baseUrl = await service.base.listen({ port: 0, host: '127.0.0.1' });
});

function linesWith(requestId: string | null): Record<string, unknown>[] {
  return lines
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line.includes(`"request_id":"${requestId ?? ''}"`))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the request log line, written without a logger made for each request', () => {
  it('one line a request, its fields in the order a request child writes them, the request id first after the process fields', async () => {
    const token = await service.token('enterprise');
    const response = await fetch(`${baseUrl}/v1/usage`, { headers: { authorization: `Bearer ${token.secret}` } });
    expect(response.status).toBe(200);
    const id = response.headers.get('x-request-id');
    const logged = linesWith(id);
    expect(logged).toHaveLength(1);
    expect(Object.keys(logged[0] ?? {})).toEqual(['level', 'time', 'pid', 'hostname', 'request_id', 'method', 'url', 'status', 'ms', 'token_id', 'msg']);
    expect(logged[0]).toMatchObject({ level: 30, request_id: id, method: 'GET', url: '/v1/usage', status: 200, token_id: token.id, msg: 'request' });
    // The bytes a request's child logger writes: its binding, then the fields.
    const line = lines.flatMap((chunk) => chunk.split('\n')).find((text) => text.includes(`"request_id":"${id ?? ''}"`)) ?? '';
    expect(line).toMatch(new RegExp(`^\\{"level":30,"time":\\d+,"pid":${process.pid},"hostname":"[^"]+","request_id":"${id ?? ''}","method":"GET","url":"/v1/usage","status":200,"ms":[\\d.]+,"token_id":"${token.id}","msg":"request"\\}$`));
  });

  it('a request that logs nothing through request.log makes no child logger; one that does makes it once', async () => {
    const token = await service.token('enterprise');
    const made = vi.spyOn(service.base.log, 'child');
    try {
      for (let i = 0; i < 5; i += 1) expect((await fetch(`${baseUrl}/v1/usage`, { headers: { authorization: `Bearer ${token.secret}` } })).status).toBe(200);
      expect(made).not.toHaveBeenCalled();
      expect((await fetch(`${baseUrl}/v1/analysis/${'x'.repeat(150)}`)).status).toBe(404);
      expect(made).toHaveBeenCalledTimes(1);
    } finally {
      made.mockRestore();
    }
  });

  it('a line logged through request.log during a request still carries its request id (the logger is made when first used)', async () => {
    const response = await fetch(`${baseUrl}/v1/analysis/${'x'.repeat(150)}`, { headers: { 'x-request-id': 'long-segment-1' } });
    expect(response.status).toBe(404);
    // The router's refusal is that request's one line, written through request.log.
    const logged = linesWith('long-segment-1');
    expect(logged.map((line) => line.msg)).toEqual(['request refused by the router']);
    expect(logged[0]).toMatchObject({ level: 30, request_id: 'long-segment-1', status: 404, code: 'FST_ERR_MAX_PARAM_LENGTH' });
  });
});

describe('redactUrl skips its work for a plain path, with the same answer', () => {
  it('agrees with the full redaction on any URL made of path-like pieces', () => {
    const piece = fc.constantFrom('/', 'p', 'P', 'images', 'disc-map', 'v1', 'usage', '@', '%40', '%2F', '?', '#', '=', '&', 'text', 'page', 'x'.repeat(31), 'y'.repeat(32), 'a.b', '-', '_');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const url = pieces.join('');
        expect(redactUrl(url)).toBe(redactUrlFully(url));
      }),
      { numRuns: 5_000 },
    );
    for (const url of ['/v1/usage', '/healthz', '/p/abc', '/images/disc-map/p/abc', '/P/abc', '/p/', `/${'z'.repeat(40)}`, '/a@b', '/v1/usage?token=x', '/x#y']) {
      expect(redactUrl(url)).toBe(redactUrlFully(url));
    }
    expect(redactUrl('/p/abc')).toBe('/p/[REDACTED]');
  });
});
