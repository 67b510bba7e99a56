import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../context.ts';
import { enableEndpoint } from '../../../webhooks/endpoints.ts';
import { errorResponses, TOKEN_ERRORS } from '../error-responses.ts';
import { common, EndpointIdParams, endpointSchema, endpointView, type WebhookGroup } from './group.ts';

export function enableWebhookRoute(group: WebhookGroup): FastifyPluginAsyncTypebox<{ ctx: AppContext }> {
  const schema = {
    summary: 'Enable an endpoint again after it was disabled; events from now on are sent to it',
    operationId: `enable${group.name}Webhook`,
    ...common(group),
    params: EndpointIdParams,
    response: { 200: { ...endpointSchema(group), description: 'The endpoint, enabled: events are sent to it again' }, ...errorResponses([...TOKEN_ERRORS, 'forbidden', 'not_found']) },
  };
  return async (app, { ctx }) => {
    app.post(`${group.prefix}/:id/enable`, { schema }, async (request) => endpointView(await enableEndpoint(ctx.db, await group.owner(ctx, request), request.params.id)));
  };
}
