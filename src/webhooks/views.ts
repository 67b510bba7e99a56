import type { DeliveryView, Endpoint } from './endpoints.ts';

/**
 * The JSON an endpoint and a delivery are shown as, to their owner through the API
 * (src/http/common/webhooks) and to the operator (src/operator/webhook-verbs.ts, which adds the owner).
 */
export function endpointJson(endpoint: Endpoint) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    created_at: endpoint.createdAt.toISOString(),
    disabled_at: endpoint.disabledAt?.toISOString() ?? null,
    disabled_reason: endpoint.disabledReason,
    failing_since: endpoint.failingSince?.toISOString() ?? null,
    previous_secret_expires_at: endpoint.previousSecretUntil?.toISOString() ?? null,
  };
}

export function deliveryJson(d: DeliveryView) {
  return {
    id: d.id,
    event_type: d.eventType,
    status: d.status,
    attempts: d.attempts,
    last_status: d.lastStatus,
    last_error: d.lastError,
    next_attempt_at: d.nextAttemptAt?.toISOString() ?? null,
    created_at: d.createdAt.toISOString(),
    finished_at: d.finishedAt?.toISOString() ?? null,
  };
}
