import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { tokenOf } from '../shared/auth.ts';
import { AnnualUsage, usageData } from '../shared/usage.ts';

const schema = {
  summary: "Usage of this organization token and its plan's rate limit",
  tags: ['Usage'],
  security: [{ orgToken: [] }],
  response: { 200: AnnualUsage },
};

export const connectUsageRoute: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/v1/usage', { schema }, async (request) => usageData(ctx, tokenOf(request)));
};
