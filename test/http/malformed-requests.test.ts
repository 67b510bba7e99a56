import { describe, expect, it } from 'vitest';
import { OUTGOING_TEXT } from '../fixtures/texts.ts';
import { multipartFile, textPdf } from '../fixtures/pdf.ts';
import { useEnterpriseService } from '../helpers/service.ts';

const { service, auth } = useEnterpriseService();

type ErrorResponse = { statusCode: number; headers: Record<string, unknown>; json: () => { error: { code: string; message: string; request_id: string } } };
function expectOurError(response: ErrorResponse, status: number, code: string) {
  expect(response.statusCode).toBe(status);
  const { error } = response.json();
  expect(error.code).toBe(code);
  expect(error.request_id).toBe(response.headers['x-request-id']);
  return error.message;
}

describe('malformed multipart bodies are the caller’s 400, not our 500', () => {
  const cutOff = '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 abc';
  it.each(['/v1/analysis/pdf', '/v1/analysis/text'])('%s: no boundary, or a part cut off', async (url) => {
    const noBoundary = await service.base.inject({ method: 'POST', url, headers: { ...auth, 'content-type': 'multipart/form-data' }, payload: '%PDF-1.4 x' });
    expect(expectOurError(noBoundary, 400, 'bad_request')).toContain('Boundary not found');
    const truncated = await service.base.inject({ method: 'POST', url, headers: { ...auth, 'content-type': 'multipart/form-data; boundary=XYZ' }, payload: cutOff });
    expect(expectOurError(truncated, 400, 'bad_request')).toContain('multipart body could not be read');
  });
});

describe('URLs the router or the database cannot take', () => {
  it('a NUL character anywhere in the URL is a 400 before any query runs', async () => {
    expect(expectOurError(await service.base.inject({ url: '/v1/analysis/an_%00x', headers: auth }), 400, 'bad_request')).toContain('NUL');
    expectOurError(await service.base.inject({ url: '/v1/profiles?email=a%00b@example.com', headers: auth }), 400, 'bad_request');
  });

  it('a path segment over 100 characters is our 404, token or not; a broken %-escape our 400', async () => {
    const long = `/v1/analysis/${'x'.repeat(101)}`;
    expect(expectOurError(await service.base.inject({ url: long, headers: auth }), 404, 'not_found')).toContain('100 characters');
    expectOurError(await service.base.inject({ url: long }), 404, 'not_found');
    expectOurError(await service.base.inject({ url: `/v1/analysis/${'x'.repeat(100)}`, headers: auth }), 404, 'not_found');
    expect(expectOurError(await service.base.inject({ url: '/p/%E0%A4%A', headers: auth }), 400, 'bad_request')).toContain('%-escape');
  });
});

describe('a PDF sent where text is expected, and PDFs labelled as any file', () => {
  it('the text route points a PDF to the PDF route instead of analysing its bytes as text', async () => {
    const pdf = await textPdf(OUTGOING_TEXT);
    const part = await multipartFile('file', pdf);
    const asPart = await service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers: { ...auth, 'content-type': part.contentType }, payload: part.payload });
    expect(expectOurError(asPart, 415, 'unsupported_media_type')).toContain('POST /v1/analysis/pdf');
    const asPlain = await service.base.inject({ method: 'POST', url: '/v1/analysis/text', headers: { ...auth, 'content-type': 'text/plain' }, payload: Buffer.from(pdf).toString('latin1') });
    expectOurError(asPlain, 415, 'unsupported_media_type');
  });

  it('a multipart PDF over the limit is a 413 that names the limit, as a raw one is', async () => {
    const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(11 * 1024 * 1024, 0x20)]);
    const part = await multipartFile('file', big);
    const multipart = await service.base.inject({ method: 'POST', url: '/v1/analysis/pdf', headers: { ...auth, 'content-type': part.contentType }, payload: part.payload });
    expect(expectOurError(multipart, 413, 'payload_too_large')).toBe('The PDF is larger than 10 MB.');
    const raw = await service.base.inject({ method: 'POST', url: '/v1/analysis/pdf', headers: { ...auth, 'content-type': 'application/pdf' }, payload: big });
    expect(expectOurError(raw, 413, 'payload_too_large')).toBe('The PDF is larger than 10 MB.');
    // Past BODY_LIMIT too the body is refused by its declared length before a byte is read, with the route's own limit.
    const huge = Buffer.concat([big, Buffer.alloc(2 * 1024 * 1024, 0x20)]);
    const over = await service.base.inject({ method: 'POST', url: '/v1/analysis/pdf', headers: { ...auth, 'content-type': 'application/pdf' }, payload: huge });
    expect(expectOurError(over, 413, 'payload_too_large')).toBe('The PDF is larger than 10 MB.');
  });

  it('the PDF route takes application/octet-stream and still checks the signature', async () => {
    const pdf = await service.base.inject({ method: 'POST', url: '/v1/analysis/pdf', headers: { ...auth, 'content-type': 'application/octet-stream' }, payload: Buffer.from(await textPdf(OUTGOING_TEXT)) });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.json().data.id).toMatch(/^an_/);
    const notPdf = await service.base.inject({ method: 'POST', url: '/v1/analysis/pdf', headers: { ...auth, 'content-type': 'application/octet-stream' }, payload: Buffer.from('just some text') });
    expect(expectOurError(notPdf, 415, 'unsupported_media_type')).toBe('The uploaded file is not a PDF.');
  });
});
