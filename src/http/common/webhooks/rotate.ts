import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { rotateSecret } from '../../../webhooks/endpoints.ts';
import { errorResponses, TOKEN_ERRORS } from '../error-responses.ts';
import { common, EndpointIdParams, endpointSchema, endpointView, Secret, type WebhookGroup } from './group.ts';

export function rotateWebhookSecretRoute(group: WebhookGroup): FastifyPluginAsyncTypebox<{ ctx: AppContext }> {
  const schema = {
    summary: 'Make a new signing secret, shown this once; the old one signs too for 24 hours, so the receiver can switch without losing a webhook',
    operationId: `rotate${group.name}WebhookSecret`,
    ...common(group),
    params: EndpointIdParams,
    response: {
      200: Type.Intersect([endpointSchema(group), Type.Object({ secret: Secret })], { description: 'The endpoint, with its new secret shown this once' }),
      ...errorResponses([...TOKEN_ERRORS, 'forbidden', 'not_found']),
    },
  };
  return async (app, { ctx }) => {
    app.post(`${group.prefix}/:id/rotate-secret`, { schema }, async (request) => {
      const { endpoint, secret } = await rotateSecret(ctx.db, await group.owner(ctx, request), request.params.id);
      return { ...endpointView(endpoint), secret };
    });
  };
}
