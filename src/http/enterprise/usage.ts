import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { tokenOf } from '../common/auth.ts';
import { AnnualUsage, usageData } from '../common/usage.ts';
import { errorResponses, TOKEN_ERRORS } from '../common/error-responses.ts';

const schema = {
  summary: 'Usage of this token (group A is billed by annual usage)',
  operationId: 'getEnterpriseUsage',
  tags: ['Usage'],
  security: [{ bearer: [] }],
  response: { 200: AnnualUsage, ...errorResponses(TOKEN_ERRORS) },
};

export const enterpriseUsageRoute: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/v1/usage', { schema }, async (request) => usageData(ctx, tokenOf(request)));
};
