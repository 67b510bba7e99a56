import type { FastifyRequest } from 'fastify';
import { Type, type TSchema } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { EVENTS_FOR, type EventType, type OwnerKind, type WebhookOwner } from '../../../webhooks/events.ts';
import { deliveryJson, endpointJson } from '../../../webhooks/views.ts';

/**
 * One API group's webhook routes: the same verbs under the group's own path, auth and owner
 * (src/http/common/webhooks/index.ts registers them inside the group's plugin, behind its token).
 */
export interface WebhookGroup {
  /** `/v1/webhooks`, or `/v1/personality_assessments/webhooks` for group B. */
  prefix: string;
  /** In operation ids: listEnterpriseWebhooks, createConnectWebhook… */
  name: 'Enterprise' | 'Assessment' | 'Connect';
  ownerKind: OwnerKind;
  security: Record<string, string[]>[];
  /** The query string every route of the group takes (group B's `token`). */
  querystring?: TSchema;
  /** Whose endpoints this request's token manages. */
  owner(ctx: AppContext, request: FastifyRequest): Promise<WebhookOwner>;
}

export const EndpointIdParams = Type.Object({ id: Type.String({ maxLength: 100, description: 'The endpoint id (ep_…)' }) });

export function eventList(group: WebhookGroup) {
  return Type.Array(Type.Unsafe<EventType>(Type.String({ enum: [...EVENTS_FOR[group.ownerKind]] })), { minItems: 1, maxItems: 10 });
}

export function endpointSchema(group: WebhookGroup) {
  return Type.Object(
    {
      id: Type.String(),
      url: Type.String({ format: 'uri' }),
      events: eventList(group),
      description: Type.String(),
      created_at: Type.String({ format: 'date-time' }),
      disabled_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When deliveries stopped (a day of failures, or 410 Gone); enable it again to resume' }),
      disabled_reason: Type.Union([Type.String(), Type.Null()]),
      failing_since: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Since when every attempt has failed; null when the last one succeeded' }),
      previous_secret_expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'After a rotation: until when the old secret signs too' }),
    },
    { description: 'A webhook endpoint (never its secret)' },
  );
}

/** The endpoint as its owner sees it. */
export const endpointView = endpointJson;

export const Secret = Type.String({ description: 'The signing secret (whsec_…), shown this once: verify each webhook with it (Standard Webhooks)' });

export const DeliverySchema = Type.Object({
  id: Type.String({ description: 'The webhook-id header of every attempt' }),
  event_type: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  last_status: Type.Union([Type.Integer(), Type.Null()], { description: "The receiver's last HTTP status; null when it gave none" }),
  last_error: Type.Union([Type.String(), Type.Null()]),
  next_attempt_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const deliveryView = deliveryJson;

/** The parts of a route schema every webhook route of the group shares. */
export function common(group: WebhookGroup) {
  return { tags: ['Webhooks'], security: group.security, ...(group.querystring ? { querystring: group.querystring } : {}) };
}
