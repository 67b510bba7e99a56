import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/context.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { OUTGOING_TEXT, RESUME_TEXT } from '../fixtures/texts.ts';
import { multipartFile, textPdf } from '../fixtures/pdf.ts';
import { encryptedPdf, manyPagesPdf } from '../personality/pdf/fixtures.ts';
import { createTestService, useEnterpriseService } from '../helpers/service.ts';

const { service, auth } = useEnterpriseService();

async function upload(bytes: Uint8Array, headers = auth, field = 'file') {
  const body = await multipartFile(field, bytes);
  return service.base.inject({ method: 'POST', url: '/v1/analysis/pdf', headers: { ...headers, 'content-type': body.contentType }, payload: body.payload });
}

async function waitForResult(id: string, headers = auth) {
  // A deadline rather than a count of polls: a loaded machine answers each poll later.
  const deadline = performance.now() + 25_000;
  while (performance.now() < deadline) {
    const response = await service.base.inject({ url: `/v1/analysis/${id}`, headers });
    if (response.statusCode !== 202) return response;
    expect(response.json()).toEqual({ data: { id, status: 'processing' } });
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('analysis did not finish');
}

describe('PDF analysis', () => {
  it('answers an id at once, then A3 once the background analysis is done', async () => {
    const response = await upload(await textPdf(`${RESUME_TEXT}\n${OUTGOING_TEXT}`));
    expect(response.statusCode).toBe(200);
    const { id } = response.json().data as { id: string };
    expect(id).toMatch(/^an_/);
    const result = await waitForResult(id);
    expect(result.statusCode).toBe(200);
    const { data } = result.json();
    expect(data).toMatchObject({ id, status: 'complete', personality: { disc_type: expect.any(String) } });
    expect(data.content.motivations.length).toBeGreaterThanOrEqual(3);
    expect(data.content.drains.length).toBeGreaterThanOrEqual(3);
  });

  it('also takes the PDF itself as the body (Content-Type: application/pdf)', async () => {
    const raw = (bytes: Uint8Array) =>
      service.base.inject({ method: 'POST', url: '/v1/analysis/pdf', headers: { ...auth, 'content-type': 'application/pdf' }, payload: Buffer.from(bytes) });
    const response = await raw(await textPdf(`${RESUME_TEXT}\n${OUTGOING_TEXT}`));
    expect(response.statusCode).toBe(200);
    const result = await waitForResult(response.json().data.id);
    expect(result.json().data).toMatchObject({ status: 'complete', personality: { disc_type: expect.any(String) } });
    const notPdf = await raw(Buffer.from('just some text'));
    expect(notPdf.statusCode).toBe(415);
    expect(notPdf.json().error.message).toMatch(/not a PDF/);
    expect((await raw(new Uint8Array())).statusCode).toBe(400);
  });

  it('one token cannot read another token’s analysis; an unknown id is 404', async () => {
    const { id } = (await upload(await textPdf(OUTGOING_TEXT))).json().data as { id: string };
    const other = { authorization: `Bearer ${(await service.token('enterprise')).secret}` };
    const foreign = await service.base.inject({ url: `/v1/analysis/${id}`, headers: other });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe('not_found');
    expect((await service.base.inject({ url: '/v1/analysis/an_nope', headers: auth })).statusCode).toBe(404);
  });

  it('refuses an empty file, a file that is not a PDF, and a body that is not multipart', async () => {
    const empty = await upload(new Uint8Array());
    expect(empty.statusCode).toBe(400);
    const png = await upload(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]));
    expect(png.statusCode).toBe(415);
    expect(png.json().error.message).toMatch(/not a PDF/);
    const json = await service.base.inject({ method: 'POST', url: '/v1/analysis/pdf', headers: auth, payload: { file: 'x' } });
    expect(json.statusCode).toBe(415);
    expect(json.json().error.message).toMatch(/multipart\/form-data .* application\/pdf/);
    const wrongField = await upload(await textPdf(OUTGOING_TEXT), auth, 'document');
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json().error.message).toMatch(/named "file"/);
  });

  it.each([
    ['an encrypted PDF', () => encryptedPdf(), 'pdf_encrypted'],
    ['a PDF of thousands of pages', () => manyPagesPdf(3000), 'pdf_too_many_pages'],
    ['a truncated PDF', async () => (await textPdf(OUTGOING_TEXT)).slice(0, 400), 'pdf_unreadable'],
    ['a PDF with too little text', () => textPdf('Curriculum vitae. Page one.'), 'text_too_short'],
  ])('%s ends in the no-personality answer, with the reason beside it', async (_label, make, reason) => {
    const response = await upload(await make());
    expect(response.statusCode).toBe(200);
    const result = await waitForResult(response.json().data.id);
    expect(result.statusCode).toBe(200);
    expect(result.json()).toEqual({ data: null, message: 'Content did not yield a personality', reason });
  });

  it('work queued before a crash is finished by the next process', async () => {
    // A context without a worker stands for a process that accepted the upload and died.
    const stopped = createContext({ ...service.ctx.config }, service.ctx.db, createLogger('silent'), { runJobs: false });
    const { submitPdf } = await import('../../src/analysis/analyses.ts');
    const token = await service.token('enterprise');
    const id = await submitPdf({ db: stopped.db, pdfLimits: stopped.pdfLimits, spool: stopped.spool, maxPending: 50, wakeWorker: stopped.wakeWorker }, token.id, await textPdf(OUTGOING_TEXT));
    await stopped.shutdown();
    // The test service's own worker polls the shared queue and finishes it.
    const result = await waitForResult(id, { authorization: `Bearer ${token.secret}` });
    expect(result.statusCode).toBe(200);
    expect(result.json().data.status).toBe('complete');
  });
});

describe('PDF uploads in progress per token', () => {
  it('are capped: the next upload is a 429 with Retry-After until one finishes; other tokens are not held up', async () => {
    // No worker here, so every upload stays in progress until the test finishes one.
    const capped = await createTestService({ RAPPORT_IN_PROCESS_WORKER: 'false', RAPPORT_PDF_MAX_PENDING: '2' });
    try {
      const first = { authorization: `Bearer ${(await capped.token('enterprise')).secret}` };
      const second = { authorization: `Bearer ${(await capped.token('enterprise')).secret}` };
      const pdf = await textPdf(OUTGOING_TEXT);
      const send = async (headers: { authorization: string }) => {
        const body = await multipartFile('file', pdf);
        return capped.base.inject({ method: 'POST', url: '/v1/analysis/pdf', headers: { ...headers, 'content-type': body.contentType }, payload: body.payload });
      };
      const accepted = [await send(first), await send(first)];
      expect(accepted.map((r) => r.statusCode)).toEqual([200, 200]);

      const refused = await send(first);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.json().error).toMatchObject({ code: 'rate_limited' });
      expect(refused.json().error.message).toContain('its limit of 2 PDF analyses in progress');
      expect((await send(second)).statusCode).toBe(200);

      // Once one of the first token's analyses ends, it may upload again.
      const { finishAnalysis } = await import('../../src/analysis/repository.ts');
      await finishAnalysis(capped.ctx.db, accepted[0]?.json().data.id, { failureReason: 'pdf_unreadable' });
      expect((await send(first)).statusCode).toBe(200);
      expect((await send(first)).statusCode).toBe(429);
    } finally {
      await capped.close();
    }
  });
});
