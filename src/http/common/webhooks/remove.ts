import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { removeEndpoint } from '../../../webhooks/endpoints.ts';
import { errorResponses, TOKEN_ERRORS } from '../error-responses.ts';
import { common, EndpointIdParams, type WebhookGroup } from './group.ts';

export function removeWebhookRoute(group: WebhookGroup): FastifyPluginAsyncTypebox<{ ctx: AppContext }> {
  const schema = {
    summary: 'Remove a webhook endpoint; what it had still to receive is not sent',
    operationId: `delete${group.name}Webhook`,
    ...common(group),
    params: EndpointIdParams,
    response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses([...TOKEN_ERRORS, 'forbidden', 'not_found']) },
  };
  return async (app, { ctx }) => {
    app.delete(`${group.prefix}/:id`, { schema }, async (request, reply) => {
      await removeEndpoint(ctx.db, await group.owner(ctx, request), request.params.id);
      return reply.status(204).send(null);
    });
  };
}
