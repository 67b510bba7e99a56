import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { checkRoomForPdf, pdfTooLarge, submitPdf, tooManyUploads } from '../../analysis/analyses.ts';
import { UploadTooLarge, type SpooledUpload } from '../../analysis/spool.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../shared/errors.ts';
import { tokenOf } from '../common/auth.ts';
import { acceptsBody } from '../common/body-caps.ts';
import { busboyLimits, readingMultipart, type MultipartCaps } from '../common/multipart.ts';
import { errorResponses, TOKEN_ERRORS } from '../common/error-responses.ts';

const schema = {
  summary: 'Upload a PDF (resume or profile) for analysis; read the result with GET /v1/analysis/{id}',
  operationId: 'uploadPdfForAnalysis',
  description:
    'multipart/form-data with one file part named `file` (as the contract says), or the PDF itself as the body with `Content-Type: application/pdf`. ' +
    'Answers at once with the analysis id; extraction and analysis run in the background.',
  tags: ['Analysis'],
  security: [{ bearer: [] }],
  consumes: ['multipart/form-data', 'application/pdf', 'application/octet-stream'],
  response: {
    200: Type.Object({ data: Type.Object({ id: Type.String() }) }, { description: 'The PDF was accepted: data.id names the analysis for GET /v1/analysis/{id}' }),
    ...errorResponses([...TOKEN_ERRORS, 'bad_request', 'payload_too_large', 'unsupported_media_type'], { rate_limited: 'rate_limited: over the rate limit, or this token has its most PDF analyses in progress (RAPPORT_PDF_MAX_PENDING); Retry-After says when to try again' }),
  },
};

/** The upload as the OpenAPI document shows it (so /docs offers a file picker); read by spooledUpload, not validated. */
const PDF_FILE = { type: 'string', format: 'binary', description: 'The PDF, at most the configured size' };
const UPLOAD_BODY = {
  content: {
    'multipart/form-data': { schema: { type: 'object', properties: { file: PDF_FILE }, required: ['file'] } },
    'application/pdf': { schema: PDF_FILE },
  },
};

/** One file part named "file"; a few fields beside it are tolerated (some clients add a name). */
function pdfMultipart(maxBytes: number): MultipartCaps {
  return { parts: 10, files: 1, fields: 5, fileSize: maxBytes, fieldSize: 1024, reads: 'one file part named "file"' };
}

const UPLOAD_TYPES = /^\s*(?:multipart\/form-data|application\/pdf|application\/octet-stream)\s*(?:;|$)/i;

const HOW_TO_UPLOAD = 'Upload the PDF as multipart/form-data with one file part named "file", or send the PDF itself with Content-Type: application/pdf.';

/** Streams the upload to the spool as it arrives; nothing of it is held in memory whole. */
async function spooledUpload(request: FastifyRequest, ctx: AppContext): Promise<SpooledUpload> {
  const maxBytes = ctx.pdfLimits.maxBytes;
  const receive = async (source: Readable) => {
    try {
      return await ctx.spool.receive(source, maxBytes);
    } catch (error) {
      if (error instanceof UploadTooLarge) throw pdfTooLarge(maxBytes);
      throw error;
    }
  };
  // A raw upload (curl --data-binary @resume.pdf -H 'Content-Type: application/pdf'), or octet-stream.
  if (request.body instanceof Readable) {
    if (Number(request.headers['content-length'] ?? 0) > maxBytes) throw pdfTooLarge(maxBytes);
    return receive(request.body);
  }
  if (!request.isMultipart()) throw new AppError('unsupported_media_type', HOW_TO_UPLOAD);
  const caps = pdfMultipart(maxBytes);
  if (Number(request.headers['content-length'] ?? 0) > maxBytes + 64 * 1024) throw pdfTooLarge(maxBytes);
  return readingMultipart(async () => {
    const file = await request.file({ limits: busboyLimits(caps) });
    if (!file) throw new AppError('bad_request', 'No file in the upload: attach the PDF as a file part named "file".');
    if (file.fieldname !== 'file') throw new AppError('bad_request', `Expected the file part to be named "file", got "${file.fieldname}".`);
    // Read through the part's async iterator, as the reader's own toBuffer does: a part cut off
    // before its end errors the part before we read it, and only the iterator reports that.
    const upload = await receive(Readable.from(file.file));
    // The multipart reader stops at its own limit (the same size) and marks the part cut short.
    if (file.file.truncated) {
      await ctx.spool.discard(upload.file);
      throw pdfTooLarge(maxBytes);
    }
    return upload;
  }, caps);
}

export const analysisPdfRoute: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Scoped to this plugin: only this route reads a raw body. Many HTTP clients label any file
  // application/octet-stream; the bytes are checked for a PDF signature either way.
  // The body is handed over as a stream, written to disk as it arrives (see spooledUpload).
  // A declared length past the PDF limit is refused here, before a byte is read.
  app.addContentTypeParser(['application/pdf', 'application/octet-stream'], (request, payload, done) => {
    const maxBytes = ctx.pdfLimits.maxBytes;
    if (Number(request.headers['content-length'] ?? 0) > maxBytes) return done(pdfTooLarge(maxBytes), undefined);
    done(null, payload);
  });
  // Before the body is read: a process receiving all the uploads it takes at once (503), a token
  // sending its share of them (429), or a token at its cap of pending analyses (429, counting its
  // uploads arriving now), is told so without uploading the file first. The connection is then
  // closed rather than drained: reading the unwanted 10 MB would cost the event loop what the
  // refusal saves.
  app.addHook('preParsing', async (request, reply) => {
    // JSON, a form or text is none of the upload's forms: refused before a byte of it is read.
    if (!UPLOAD_TYPES.test(request.headers['content-type'] ?? '')) throw new AppError('unsupported_media_type', HOW_TO_UPLOAD);
    const tokenId = tokenOf(request).id;
    const place = ctx.spool.enter(tokenId);
    if ('refused' in place) {
      reply.header('connection', 'close');
      throw tooManyUploads(place.refused, ctx.spool);
    }
    // Given back however the request ends: answered, refused, cut off or timed out.
    reply.raw.once('close', place.leave);
    try {
      await checkRoomForPdf(ctx.db, tokenId, ctx.config.pdfMaxPending, ctx.spool.receivingFor(tokenId) - 1);
    } catch (error) {
      reply.header('connection', 'close');
      throw error;
    }
  });
  // The PDF (10 MB, or BODY_LIMIT if lower), and a multipart envelope around it.
  const uploadBody = acceptsBody({ bytes: ctx.pdfLimits.maxBytes + 64 * 1024 }, ctx.config.bodyLimitBytes);
  app.post('/v1/analysis/pdf', { schema, bodyLimit: uploadBody.bodyLimit, config: { ...uploadBody.config, openapiBody: UPLOAD_BODY } }, async (request) => {
    const upload = await spooledUpload(request, ctx);
    const deps = { db: ctx.db, pdfLimits: ctx.pdfLimits, spool: ctx.spool, maxPending: ctx.config.pdfMaxPending, wakeWorker: ctx.wakeWorker };
    const id = await submitPdf(deps, tokenOf(request).id, upload);
    return { data: { id } };
  });
};
