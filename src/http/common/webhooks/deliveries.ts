import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { listDeliveries } from '../../../webhooks/endpoints.ts';
import { errorResponses, TOKEN_ERRORS } from '../error-responses.ts';
import { common, DeliverySchema, deliveryView, EndpointIdParams, type WebhookGroup } from './group.ts';

export function webhookDeliveriesRoute(group: WebhookGroup): FastifyPluginAsyncTypebox<{ ctx: AppContext }> {
  const schema = {
    summary: "The endpoint's latest 50 deliveries, newest first: status, attempts, the receiver's last answer",
    operationId: `list${group.name}WebhookDeliveries`,
    ...common(group),
    params: EndpointIdParams,
    response: { 200: Type.Object({ data: Type.Array(DeliverySchema) }, { description: "The endpoint's latest deliveries, newest first" }), ...errorResponses([...TOKEN_ERRORS, 'forbidden', 'not_found']) },
  };
  return async (app, { ctx }) => {
    app.get(`${group.prefix}/:id/deliveries`, { schema }, async (request) => ({
      data: (await listDeliveries(ctx.db, await group.owner(ctx, request), request.params.id)).map(deliveryView),
    }));
  };
}
