import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { submitPdf } from '../../analysis/analyses.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../shared/errors.ts';
import { tokenOf } from '../shared/auth.ts';

const schema = {
  summary: 'Upload a PDF (resume or profile) for analysis; read the result with GET /v1/analysis/{id}',
  description:
    'multipart/form-data with one file part named `file`. Answers at once with the analysis id; extraction and analysis run in the background.',
  tags: ['Analysis'],
  security: [{ bearer: [] }],
  consumes: ['multipart/form-data'],
  response: { 200: Type.Object({ data: Type.Object({ id: Type.String() }) }) },
};

export const analysisPdfRoute: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post('/v1/analysis/pdf', { schema }, async (request) => {
    if (!request.isMultipart()) {
      throw new AppError('unsupported_media_type', 'Upload the PDF as multipart/form-data with one file part named "file".');
    }
    const file = await request.file();
    if (!file) throw new AppError('bad_request', 'No file in the upload: attach the PDF as a file part named "file".');
    if (file.fieldname !== 'file') throw new AppError('bad_request', `Expected the file part to be named "file", got "${file.fieldname}".`);
    const bytes = await file.toBuffer();
    const id = await submitPdf({ db: ctx.db, pdfLimits: ctx.pdfLimits, wakeWorker: ctx.wakeWorker }, tokenOf(request).id, bytes);
    return { data: { id } };
  });
};
