import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { MAX_TEXT_CHARS } from '../../analysis/analyses.ts';
import { sniffPdf } from '../../personality/pdf/index.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../shared/errors.ts';
import { acceptsBody, bodyTooLarge, textBodyBytes } from '../common/body-caps.ts';
import { checkInputText } from '../common/input-text.ts';
import { busboyLimits, fieldTooLarge, readingMultipart, type MultipartCaps } from '../common/multipart.ts';
import { noPersonality, NoPersonality, TextTypeField } from '../common/personality-schemas.ts';
import { sendSerialized, serializedBy } from '../common/serialized.ts';
import { AnalysisA3, toA3 } from './analysis-shapes.ts';
import { errorResponses, TOKEN_ERRORS } from '../common/error-responses.ts';
import { isTextType, TEXT_TYPES } from '../../people/person.ts';

const TextObject = Type.Object({ text: Type.String({ description: 'The text to analyse' }), text_type: Type.Optional(TextTypeField) });
type TextType = Static<typeof TextTypeField>;

/** The contract lists `text` without its encoding, so every common one is accepted. */
const schema = {
  summary: 'Predict a personality from text sent as JSON, a form, multipart, plain text or ?text=',
  operationId: 'analyzeText',
  tags: ['Analysis'],
  security: [{ bearer: [] }],
  querystring: Type.Object({
    text: Type.Optional(Type.String({ description: 'The text, when not sent as the body (the body wins when both are sent)' })),
    text_type: Type.Optional(TextTypeField),
  }),
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

/** The text (100,000 characters) in any of the encodings above, and a few fields beside it. */
const TEXT_BODY = { bytes: textBodyBytes(MAX_TEXT_CHARS), fields: 8, depth: 2 };
/** UTF-8 takes up to 4 bytes a character. */
const TEXT_MULTIPART: MultipartCaps = {
  parts: 10,
  files: 1,
  fields: 5,
  fileSize: MAX_TEXT_CHARS * 4,
  fieldSize: MAX_TEXT_CHARS * 4,
  reads: 'one field or file part named "text" (or a file part named "file"), and a field "text_type"',
};

const MISSING = 'Send the text to analyse as the parameter "text" (JSON body, form field, multipart field, plain-text body or query string).';

/** Read as text, a PDF's bytes would be analysed as gibberish and answer "too short". */
const PDF_HERE = 'This is a PDF: upload it to POST /v1/analysis/pdf, which reads its text.';

interface Submitted {
  text: string | undefined;
  textType: TextType | undefined;
}

function textTypeOf(value: unknown): TextType | undefined {
  if (value === undefined) return undefined;
  if (!isTextType(value)) throw new AppError('bad_request', `"text_type" must be one of ${TEXT_TYPES.join(', ')}; got "${String(value).slice(0, 20)}".`);
  return value;
}

/** A multipart body: a field named text (or a file part named text or file holding plain text), and an optional field text_type. */
async function fromMultipart(request: FastifyRequest): Promise<Submitted> {
  const submitted: Submitted = { text: undefined, textType: undefined };
  for await (const part of request.parts({ limits: busboyLimits(TEXT_MULTIPART) })) {
    if (part.type === 'field' && part.fieldname === 'text' && typeof part.value === 'string') {
      if (part.valueTruncated) throw fieldTooLarge(TEXT_MULTIPART, 'text');
      checkInputText({ text: part.value }, 'multipart field');
      submitted.text ??= part.value;
    } else if (part.type === 'field' && part.fieldname === 'text_type') submitted.textType = textTypeOf(part.value);
    else if (part.type === 'file' && (part.fieldname === 'text' || part.fieldname === 'file')) {
      const bytes = await part.toBuffer();
      if (bytes.length > MAX_TEXT_CHARS * 4) throw new AppError('payload_too_large', `The text is longer than ${MAX_TEXT_CHARS} characters.`);
      if (sniffPdf(bytes)) throw new AppError('unsupported_media_type', PDF_HERE);
      const text = bytes.toString('utf8');
      checkInputText({ [part.fieldname]: text }, 'multipart file part');
      submitted.text ??= text;
    } else if (part.type === 'file') await part.toBuffer();
  }
  return submitted;
}

async function submittedText(request: FastifyRequest, query: { text?: string | undefined; text_type?: TextType | undefined }): Promise<{ text: string; textType: TextType | undefined }> {
  let submitted: Submitted = { text: undefined, textType: undefined };
  if (request.isMultipart()) {
    // Multipart is read as it streams, part by part: its parts are capped above, and its whole
    // length is refused here before a byte is read when the declared one is over the cap.
    const cap = request.routeOptions.bodyLimit;
    if (Number(request.headers['content-length'] ?? 0) > cap) throw bodyTooLarge(cap);
    submitted = await readingMultipart(() => fromMultipart(request), TEXT_MULTIPART);
  } else if (typeof request.body === 'string') {
    if (request.body.startsWith('%PDF-')) throw new AppError('unsupported_media_type', PDF_HERE);
    checkInputText(request.body, 'body');
    submitted.text = request.body;
  } else if (request.body && typeof request.body === 'object') {
    if ('text' in request.body && typeof request.body.text === 'string') submitted.text = request.body.text;
    if ('text_type' in request.body) submitted.textType = textTypeOf(request.body.text_type);
  }
  const text = submitted.text ?? query.text;
  if (text === undefined) throw new AppError('bad_request', MISSING);
  return { text, textType: submitted.textType ?? query.text_type };
}

export const analysisTextPostRoute: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post('/v1/analysis/text', { schema, ...acceptsBody(TEXT_BODY, ctx.config.bodyLimitBytes) }, async (request, reply) => {
    const { text, textType } = await submittedText(request, request.query);
    const body = await ctx.textResults.answer(ctx.textPool, text, textType, 'A3', (result) =>
      serializedBy(reply, result.estimate ? toA3(ctx.descriptions.describe(result.estimate)) : noPersonality(result.reason)),
    );
    // Already serialised by this route's own response schema (reply.serialize): sent as it is.
    return sendSerialized(reply, body);
  });
};
