import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.ts';
import type { FastifyRequest } from 'fastify';
import { tokenUser } from '../../takers/queries.ts';
import { AppError } from '../../shared/errors.ts';
import { installTokenAuth, queryToken, tokenOf } from '../common/auth.ts';
import { webhookRoutes } from '../common/webhooks/index.ts';
import { assessmentFindRoute } from './find.ts';
import { TokenQuery } from './token-query.ts';
import { assessmentUsageRoute } from './usage.ts';

/** A dashboard token's endpoints are its user's (the same the dashboard shows); an operator's token has no user. */
async function tokenOwner(ctx: AppContext, request: FastifyRequest) {
  const userId = await tokenUser(ctx.db, tokenOf(request).id);
  if (userId === null) {
    throw new AppError('forbidden', 'Webhooks belong to a registered user, and this token was made by an operator for nobody in particular: use a token from a dashboard.');
  }
  return { kind: 'user' as const, userId };
}

/** Group B: the Assessment API, `?token=<token>` with an assessment token. */
export const assessmentApi: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  installTokenAuth(app, ctx, 'assessment', queryToken);
  await app.register(assessmentUsageRoute, { ctx });
  await app.register(assessmentFindRoute, { ctx });
  // assessment.completed and assessment.deleted for the tests taken through this user's links.
  await app.register(
    webhookRoutes({ prefix: '/v1/personality_assessments/webhooks', name: 'Assessment', ownerKind: 'user', security: [{ queryToken: [] }], querystring: TokenQuery, owner: tokenOwner }),
    { ctx },
  );
};
