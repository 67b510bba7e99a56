import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { tokenOf } from '../common/auth.ts';
import { AnnualUsage, usageData } from '../common/usage.ts';
import { errorResponses, TOKEN_ERRORS } from '../common/error-responses.ts';

const schema = {
  summary: "Usage of this organization token and its plan's rate limit",
  operationId: 'getConnectUsage',
  tags: ['Usage'],
  security: [{ orgToken: [] }],
  response: { 200: AnnualUsage, ...errorResponses(TOKEN_ERRORS) },
};

export const connectUsageRoute: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/v1/usage', { schema }, async (request) => usageData(ctx, tokenOf(request)));
};
