import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { queueTestEvent } from '../../../webhooks/endpoints.ts';
import { errorResponses, TOKEN_ERRORS } from '../error-responses.ts';
import { common, EndpointIdParams, type WebhookGroup } from './group.ts';

export function testWebhookRoute(group: WebhookGroup): FastifyPluginAsyncTypebox<{ ctx: AppContext }> {
  const schema = {
    summary: 'Send a webhook.test event to this endpoint, to try its receiver; follow it with the deliveries route',
    operationId: `test${group.name}Webhook`,
    ...common(group),
    params: EndpointIdParams,
    response: {
      202: Type.Object({ delivery_id: Type.String({ description: 'The webhook-id the receiver will see' }) }, { description: 'The test event is queued for delivery' }),
      ...errorResponses([...TOKEN_ERRORS, 'forbidden', 'not_found', 'conflict'], { conflict: 'conflict: the endpoint is disabled; enable it first' }),
    },
  };
  return async (app, { ctx }) => {
    app.post(`${group.prefix}/:id/test`, { schema }, async (request, reply) => {
      const deliveryId = await queueTestEvent(ctx.db, await group.owner(ctx, request), request.params.id);
      ctx.wakeWorker();
      return reply.status(202).send({ delivery_id: deliveryId });
    });
  };
}
