import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { publicBase } from '../common/links.ts';
import { sendSerialized, serializedBy } from '../common/serialized.ts';
import { noPersonality, NoPersonality, TextTypeField } from '../common/personality-schemas.ts';
import { AnalysisA2, toA2 } from './analysis-shapes.ts';
import { errorResponses, TOKEN_ERRORS } from '../common/error-responses.ts';

const schema = {
  summary: 'Predict a personality from a block of labelled text (resume or profile), one author',
  operationId: 'analyzeTextFromQuery',
  tags: ['Analysis'],
  security: [{ bearer: [] }],
  querystring: Type.Object({
    text: Type.String({ minLength: 1, description: 'Titles, experience, interests, skills, qualities, bio: one author' }),
    text_type: Type.Optional(TextTypeField),
  }),
  response: {
    200: Type.Union([AnalysisA2, NoPersonality], { description: 'A2: the predicted personality, or the no-personality answer (data null) when the text yields none' }),
    ...errorResponses([...TOKEN_ERRORS, 'bad_request']),
  },
};

export const analysisTextGetRoute: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/v1/analysis/text', { schema }, async (request, reply) => {
    // The answer's links are built from the base URL, so its bytes are kept per base as said by
    // the request (checked by publicBase only when an answer has links, as before).
    const said = ctx.config.publicBaseUrl ?? `${request.protocol}://${request.host}`;
    const body = await ctx.textResults.answer(ctx.textPool, request.query.text, request.query.text_type, `A2 ${said}`, (result) =>
      serializedBy(reply, result.estimate ? toA2(ctx.descriptions.describe(result.estimate), publicBase(request, ctx.config.publicBaseUrl)) : noPersonality(result.reason)),
    );
    // Already serialised by this route's own response schema (reply.serialize): sent as it is.
    return sendSerialized(reply, body);
  });
};
