import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { tokenOf } from '../common/auth.ts';
import { MonthlyUsage, usageData } from '../common/usage.ts';
import { TokenQuery } from './token-query.ts';
import { errorResponses, TOKEN_ERRORS } from '../common/error-responses.ts';

const schema = {
  summary: 'Usage of this token against the free tier (calls this month, rate limit)',
  operationId: 'getAssessmentUsage',
  tags: ['Usage'],
  security: [{ queryToken: [] }],
  querystring: TokenQuery,
  response: { 200: MonthlyUsage, ...errorResponses(TOKEN_ERRORS) },
};

export const assessmentUsageRoute: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/v1/personality_assessments/usage', { schema }, async (request) => usageData(ctx, tokenOf(request)));
};
