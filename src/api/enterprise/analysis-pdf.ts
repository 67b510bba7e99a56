import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { checkRoomForPdf, pdfTooLarge, submitPdf } from '../../analysis/analyses.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../shared/errors.ts';
import { tokenOf } from '../shared/auth.ts';
import { readingMultipart } from '../shared/multipart.ts';

const schema = {
  summary: 'Upload a PDF (resume or profile) for analysis; read the result with GET /v1/analysis/{id}',
  description:
    'multipart/form-data with one file part named `file` (as the contract says), or the PDF itself as the body with `Content-Type: application/pdf`. ' +
    'Answers at once with the analysis id; extraction and analysis run in the background.',
  tags: ['Analysis'],
  security: [{ bearer: [] }],
  consumes: ['multipart/form-data', 'application/pdf', 'application/octet-stream'],
  response: { 200: Type.Object({ data: Type.Object({ id: Type.String() }) }) },
};

const HOW_TO_UPLOAD = 'Upload the PDF as multipart/form-data with one file part named "file", or send the PDF itself with Content-Type: application/pdf.';

async function uploadedBytes(request: FastifyRequest, maxBytes: number): Promise<Buffer> {
  // A raw upload (curl --data-binary @resume.pdf -H 'Content-Type: application/pdf'), or octet-stream.
  if (Buffer.isBuffer(request.body)) return request.body;
  if (!request.isMultipart()) throw new AppError('unsupported_media_type', HOW_TO_UPLOAD);
  return readingMultipart(async () => {
    const file = await request.file();
    if (!file) throw new AppError('bad_request', 'No file in the upload: attach the PDF as a file part named "file".');
    if (file.fieldname !== 'file') throw new AppError('bad_request', `Expected the file part to be named "file", got "${file.fieldname}".`);
    return file.toBuffer().catch((error: unknown) => {
      // The multipart reader's own 413 does not say how large a PDF may be.
      if (error instanceof Error && 'code' in error && error.code === 'FST_REQ_FILE_TOO_LARGE') throw pdfTooLarge(maxBytes);
      throw error;
    });
  });
}

export const analysisPdfRoute: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Scoped to this plugin: only this route reads a raw body. Many HTTP clients label any file
  // application/octet-stream; the bytes are checked for a PDF signature either way.
  app.addContentTypeParser(['application/pdf', 'application/octet-stream'], { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  // Before the body is read: a token at its cap is told so without uploading the file first.
  app.addHook('preParsing', async (request) => {
    await checkRoomForPdf(ctx.db, tokenOf(request).id, ctx.config.pdfMaxPending);
  });
  app.post('/v1/analysis/pdf', { schema }, async (request) => {
    const bytes = await uploadedBytes(request, ctx.pdfLimits.maxBytes);
    const id = await submitPdf({ db: ctx.db, pdfLimits: ctx.pdfLimits, maxPending: ctx.config.pdfMaxPending, wakeWorker: ctx.wakeWorker }, tokenOf(request).id, bytes);
    return { data: { id } };
  });
};
