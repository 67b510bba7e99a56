import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { installTokenAuth, readBearer } from '../shared/auth.ts';
import { enterpriseUsageRoute } from './usage.ts';

/** Group A: the Enterprise API, `Authorization: Bearer <token>` with an enterprise token. */
export const enterpriseApi: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  installTokenAuth(app, ctx, 'enterprise', readBearer);
  await app.register(enterpriseUsageRoute, { ctx });
};
