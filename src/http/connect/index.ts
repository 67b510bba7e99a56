import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { installTokenAuth, orgToken, tokenOf } from '../common/auth.ts';
import { webhookRoutes } from '../common/webhooks/index.ts';
import { emailsRoute } from './emails.ts';
import { messagingRoute } from './messaging.ts';
import { profilesAsyncRoute } from './profiles-async.ts';
import { profilesResultsRoute } from './profiles-results.ts';
import { profilesSyncRoute } from './profiles-sync.ts';
import { relationshipsRoute } from './relationships.ts';
import { connectUsageRoute } from './usage.ts';

/** Group C: the Connect API, `X-Org-Token: <token>` with a connect token. */
export const connectApi: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  installTokenAuth(app, ctx, 'connect', orgToken);
  await app.register(connectUsageRoute, { ctx });
  await app.register(profilesSyncRoute, { ctx });
  await app.register(profilesAsyncRoute, { ctx });
  await app.register(profilesResultsRoute, { ctx });
  await app.register(relationshipsRoute, { ctx });
  await app.register(messagingRoute, { ctx });
  await app.register(emailsRoute, { ctx });
  // connect.search.finished for this organisation's searches that end in the background.
  const owner = async (_ctx: AppContext, request: FastifyRequest) => ({ kind: 'connect' as const, tokenId: tokenOf(request).id });
  await app.register(webhookRoutes({ prefix: '/v1/webhooks', name: 'Connect', ownerKind: 'connect', security: [{ orgToken: [] }], owner }), { ctx });
};
