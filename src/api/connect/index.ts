import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import { installTokenAuth, orgToken } from '../shared/auth.ts';
import { connectUsageRoute } from './usage.ts';

/** Group C: the Connect API, `X-Org-Token: <token>` with a connect token. */
export const connectApi: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  installTokenAuth(app, ctx, 'connect', orgToken);
  await app.register(connectUsageRoute, { ctx });
};
