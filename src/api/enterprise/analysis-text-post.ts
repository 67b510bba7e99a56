import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { analyzeSubmittedText, MAX_TEXT_CHARS } from '../../analysis/analyses.ts';
import { sniffPdf } from '../../personality/pdf/index.ts';
import type { AppContext } from '../../context.ts';
import { describePersonality } from '../../profiles/describe.ts';
import { AppError } from '../../shared/errors.ts';
import { readingMultipart } from '../shared/multipart.ts';
import { noPersonality, NoPersonality } from '../shared/personality-schemas.ts';
import { AnalysisA3, toA3 } from './analysis-shapes.ts';
import { errorResponses, TOKEN_ERRORS } from '../shared/error-responses.ts';

const TextObject = Type.Object({ text: Type.String({ description: 'The text to analyse' }) });

/** The contract lists `text` without its encoding, so every common one is accepted. */
const schema = {
  summary: 'Predict a personality from text sent as JSON, a form, multipart, plain text or ?text=',
  operationId: 'analyzeText',
  tags: ['Analysis'],
  security: [{ bearer: [] }],
  querystring: Type.Object({ text: Type.Optional(Type.String({ description: 'The text, when not sent as the body (the body wins when both are sent)' })) }),
  body: {
    content: {
      'application/json': { schema: TextObject },
      'application/x-www-form-urlencoded': { schema: TextObject },
      'text/plain': { schema: Type.String() },
    },
  },
  response: {
    200: Type.Union([AnalysisA3, NoPersonality], { description: 'A3: the predicted personality, or the no-personality answer (data null) when the text yields none' }),
    ...errorResponses([...TOKEN_ERRORS, 'bad_request', 'payload_too_large', 'unsupported_media_type']),
  },
};

const MISSING = 'Send the text to analyse as the parameter "text" (JSON body, form field, multipart field, plain-text body or query string).';

/** Read as text, a PDF's bytes would be analysed as gibberish and answer "too short". */
const PDF_HERE = 'This is a PDF: upload it to POST /v1/analysis/pdf, which reads its text.';

/** A multipart body: a field named text, or a file part named text or file holding plain text. */
async function textFromMultipart(request: FastifyRequest): Promise<string | undefined> {
  for await (const part of request.parts()) {
    if (part.type === 'field' && part.fieldname === 'text' && typeof part.value === 'string') return part.value;
    if (part.type === 'file' && (part.fieldname === 'text' || part.fieldname === 'file')) {
      const bytes = await part.toBuffer();
      if (bytes.length > MAX_TEXT_CHARS * 4) throw new AppError('payload_too_large', `The text is longer than ${MAX_TEXT_CHARS} characters.`);
      if (sniffPdf(bytes)) throw new AppError('unsupported_media_type', PDF_HERE);
      return bytes.toString('utf8');
    }
  }
  return undefined;
}

async function submittedText(request: FastifyRequest, queryText: string | undefined): Promise<string> {
  let text: string | undefined;
  if (request.isMultipart()) text = await readingMultipart(() => textFromMultipart(request));
  else if (typeof request.body === 'string') {
    if (request.body.startsWith('%PDF-')) throw new AppError('unsupported_media_type', PDF_HERE);
    text = request.body;
  } else if (request.body && typeof request.body === 'object' && 'text' in request.body && typeof request.body.text === 'string') {
    text = request.body.text;
  }
  text ??= queryText;
  if (text === undefined) throw new AppError('bad_request', MISSING);
  return text;
}

export const analysisTextPostRoute: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post('/v1/analysis/text', { schema }, async (request) => {
    const result = await analyzeSubmittedText(ctx.textPool, await submittedText(request, request.query.text));
    if (!result.estimate) return noPersonality(result.reason);
    return toA3(describePersonality(result.estimate));
  });
};
