import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { MAX_TEXT_CHARS } from '../../analysis/analyses.ts';
import type { AppContext } from '../../context.ts';
import { installTokenAuth, bearerToken, tokenOf } from '../common/auth.ts';
import { webhookRoutes } from '../common/webhooks/index.ts';
import { analysisGetRoute } from './analysis-get.ts';
import { analysisPdfRoute } from './analysis-pdf.ts';
import { analysisTextGetRoute } from './analysis-text-get.ts';
import { analysisTextPostRoute } from './analysis-text-post.ts';
import { profilesRoute } from './profiles.ts';
import { enterpriseUsageRoute } from './usage.ts';

/** Group A: the Enterprise API, `Authorization: Bearer <token>` with an enterprise token. */
export const enterpriseApi: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  installTokenAuth(app, ctx, 'enterprise', bearerToken);
  await app.register(enterpriseUsageRoute, { ctx });
  await app.register(profilesRoute, { ctx });
  await app.register(analysisTextGetRoute, { ctx });
  // Only the two routes that read multipart bodies take them: the plugin's parser and its
  // per-request hook (an async onResponse) stay inside this scope, off every other request.
  // Elsewhere a multipart body is 415, as on groups B and C (docs/api-decisions.md).
  await app.register(async (uploads) => {
    await uploads.register(multipart, {
      limits: { fileSize: ctx.pdfLimits.maxBytes, files: 1, fields: 5, fieldSize: MAX_TEXT_CHARS * 4, parts: 10 },
    });
    await uploads.register(analysisTextPostRoute, { ctx });
    await uploads.register(analysisPdfRoute, { ctx });
  });
  await app.register(analysisGetRoute, { ctx });
  // analysis.finished for this token's PDF analyses.
  const owner = async (_ctx: AppContext, request: FastifyRequest) => ({ kind: 'enterprise' as const, tokenId: tokenOf(request).id });
  await app.register(webhookRoutes({ prefix: '/v1/webhooks', name: 'Enterprise', ownerKind: 'enterprise', security: [{ bearer: [] }], owner }), { ctx });
};
