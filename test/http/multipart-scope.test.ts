import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { OUTGOING_TEXT } from '../fixtures/texts.ts';
import { multipartFile, textPdf } from '../fixtures/pdf.ts';
import { useEnterpriseService } from '../helpers/service.ts';

/**
 * Group A reads multipart bodies on its two upload routes only (POST /v1/analysis/text and
 * POST /v1/analysis/pdf). Elsewhere a multipart body is refused with 415 and the one JSON error
 * body, as groups B and C refuse it, instead of reaching the route's validation (a 400 that said
 * the body must be an object). Over a real socket on loopback.
 */
const { service, auth } = useEnterpriseService();
let base: string;

beforeAll(async () => {
  await service.base.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(service.base.server.address() as AddressInfo).port}`;
});

function form(fields: Record<string, string>): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return body;
}

describe('a multipart body', () => {
  it('on a JSON route of group A (POST /v1/webhooks) is 415 with the one JSON error body', async () => {
    const response = await fetch(`${base}/v1/webhooks`, { method: 'POST', headers: auth, body: form({ url: 'https://example.com/hook', events: 'analysis.finished' }) });
    expect(response.status).toBe(415);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await response.json()) as { error: { code: string; message: string; request_id: string } };
    expect(body.error.code).toBe('unsupported_media_type');
    expect(body.error.message).toBe('Unsupported Content-Type; send application/json, or the type the endpoint documents at /docs.');
    expect(body.error.request_id).toBe(response.headers.get('x-request-id'));
    expect(Object.keys(body)).toEqual(['error']);
  });

  it('is still read by the text route and the PDF route', async () => {
    const text = await fetch(`${base}/v1/analysis/text`, { method: 'POST', headers: auth, body: form({ text: OUTGOING_TEXT }) });
    expect(text.status).toBe(200);
    const analysed = (await text.json()) as { data: { personality: { disc_type: string } } | null };
    expect(analysed.data?.personality.disc_type).toMatch(/^[DISC][DISCdisc]?$/);
    const pdf = await textPdf(`Resume\n${OUTGOING_TEXT}`);
    const file = await multipartFile('file', pdf);
    const upload = await fetch(`${base}/v1/analysis/pdf`, { method: 'POST', headers: { ...auth, 'content-type': file.contentType }, body: file.payload });
    expect(upload.status).toBe(200);
    expect(((await upload.json()) as { data: { id: string } }).data.id).toMatch(/\S/);
  });

  it('sent to the PDF route with a JSON body is still that route’s own 415', async () => {
    const response = await fetch(`${base}/v1/analysis/pdf`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(415);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/multipart\/form-data .* application\/pdf/);
  });
});
