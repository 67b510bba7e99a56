import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { installTokenAuth, queryToken } from '../shared/auth.ts';
import { assessmentFindRoute } from './find.ts';
import { assessmentUsageRoute } from './usage.ts';

/** Group B: the Assessment API, `?token=<token>` with an assessment token. */
export const assessmentApi: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  installTokenAuth(app, ctx, 'assessment', queryToken);
  await app.register(assessmentUsageRoute, { ctx });
  await app.register(assessmentFindRoute, { ctx });
};
