import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { listEndpoints } from '../../../webhooks/endpoints.ts';
import { errorResponses, TOKEN_ERRORS } from '../error-responses.ts';
import { common, endpointSchema, endpointView, type WebhookGroup } from './group.ts';

export function listWebhooksRoute(group: WebhookGroup): FastifyPluginAsyncTypebox<{ ctx: AppContext }> {
  const schema = {
    summary: 'Your webhook endpoints',
    operationId: `list${group.name}Webhooks`,
    ...common(group),
    response: { 200: Type.Object({ data: Type.Array(endpointSchema(group)) }, { description: 'Your endpoints, oldest first (never their secrets)' }), ...errorResponses([...TOKEN_ERRORS, 'forbidden']) },
  };
  return async (app, { ctx }) => {
    app.get(group.prefix, { schema }, async (request) => ({ data: (await listEndpoints(ctx.db, await group.owner(ctx, request))).map(endpointView) }));
  };
}
