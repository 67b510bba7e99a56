import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { getAnalysis } from '../../analysis/analyses.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../shared/errors.ts';
import { tokenOf } from '../common/auth.ts';
import { noPersonality, NoPersonality } from '../common/personality-schemas.ts';
import { StoredAnalysisA3, toA3 } from './analysis-shapes.ts';
import { errorResponses, TOKEN_ERRORS } from '../common/error-responses.ts';

const Processing = Type.Object(
  { data: Type.Object({ id: Type.String(), status: Type.Literal('processing') }) },
  { description: 'Not finished yet: ask again shortly (Retry-After says when)' },
);

const schema = {
  summary: 'Result of a PDF analysis: 202 while processing, then A3 or the no-personality answer',
  operationId: 'getAnalysis',
  tags: ['Analysis'],
  security: [{ bearer: [] }],
  params: Type.Object({ id: Type.String({ maxLength: 100, description: 'The id POST /v1/analysis/pdf answered with (an_…)' }) }),
  response: {
    200: Type.Union([StoredAnalysisA3, NoPersonality], { description: 'The analysis is done: A3, or the no-personality answer (data null) when the PDF yielded none' }),
    202: Processing,
    ...errorResponses([...TOKEN_ERRORS, 'not_found']),
  },
};

export const analysisGetRoute: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/v1/analysis/:id', { schema }, async (request, reply) => {
    // The upload's own path reads as an id here; it takes POST only, so say that (the router's
    // 405 cannot, as this route matches it).
    if (request.params.id === 'pdf') {
      reply.header('allow', 'POST');
      throw new AppError('method_not_allowed', '/v1/analysis/pdf takes POST, not GET: upload the PDF there, then read the result at GET /v1/analysis/{id}.');
    }
    const analysis = await getAnalysis(ctx.db, tokenOf(request).id, request.params.id);
    if (analysis.status === 'processing') {
      reply.header('retry-after', '1');
      return reply.status(202).send({ data: { id: analysis.id, status: 'processing' as const } });
    }
    if (!analysis.estimate) return noPersonality(analysis.failureReason);
    const shaped = toA3(ctx.descriptions.describe(analysis.estimate));
    return { data: { id: analysis.id, status: 'complete' as const, ...shaped.data } };
  });
};
