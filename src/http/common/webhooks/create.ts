import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { MAX_URL_LENGTH } from '../../../webhooks/address-check.ts';
import { createEndpoint, MAX_ENDPOINTS_PER_OWNER } from '../../../webhooks/endpoints.ts';
import { EVENTS_FOR } from '../../../webhooks/events.ts';
import { errorResponses, TOKEN_ERRORS } from '../error-responses.ts';
import { common, endpointSchema, endpointView, eventList, Secret, type WebhookGroup } from './group.ts';
import { acceptsBody } from '../body-caps.ts';

/** An endpoint: its URL, a list of events and a description, one level of nesting below the object. */
const CREATE_BODY = { bytes: 8192, fields: 8, depth: 2 };

export function createWebhookRoute(group: WebhookGroup): FastifyPluginAsyncTypebox<{ ctx: AppContext }> {
  const offered = EVENTS_FOR[group.ownerKind].join(', ');
  const schema = {
    summary: 'Register a webhook endpoint; its signing secret is in this answer only',
    description:
      `Events: ${offered}. Webhooks follow Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature headers; HMAC-SHA256 with the secret). ` +
      'The URL must be https and reach a public address (checked now and on every attempt, after DNS resolution); redirects are not followed. ' +
      `At most ${MAX_ENDPOINTS_PER_OWNER} endpoints.`,
    operationId: `create${group.name}Webhook`,
    ...common(group),
    body: Type.Object({
      url: Type.String({ maxLength: MAX_URL_LENGTH, description: 'Where to POST the events: https://…' }),
      events: Type.Optional({ ...eventList(group), description: `The events to send; all of this API's (${offered}) when left out` }),
      description: Type.Optional(Type.String({ maxLength: 200, description: 'A note for you' })),
    }),
    response: {
      201: Type.Intersect([endpointSchema(group), Type.Object({ secret: Secret })], { description: 'The endpoint, with its secret shown this once' }),
      ...errorResponses([...TOKEN_ERRORS, 'bad_request', 'forbidden', 'conflict'], {
        bad_request: 'bad_request: the URL is not https, does not resolve, or reaches an address webhooks may not go to; or an unknown event',
        conflict: `conflict: you have ${MAX_ENDPOINTS_PER_OWNER} endpoints already`,
      }),
    },
  };
  return async (app, { ctx }) => {
    app.post(group.prefix, { schema, ...acceptsBody(CREATE_BODY, ctx.config.bodyLimitBytes) }, async (request, reply) => {
      const owner = await group.owner(ctx, request);
      const { endpoint, secret } = await createEndpoint(ctx.db, ctx.webhookAddresses, owner, request.body);
      return reply.status(201).send({ ...endpointView(endpoint), secret });
    });
  };
}
