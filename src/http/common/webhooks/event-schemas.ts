import type { FastifyInstance } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { TEST_EVENT, type OwnerKind } from '../../../webhooks/events.ts';

/**
 * The bodies webhooks carry, as components of each host's OpenAPI document, so a generated
 * client types them (clients/typescript). Every body is Standard Webhooks' `{type, timestamp,
 * data}`; `timestamp` is when the event happened, the same on every attempt. What sends them:
 * src/connect/search-jobs.ts, src/analysis/analyses.ts, src/takers/record.ts and remove.ts.
 */
function event(id: string, type: string, description: string, data: TSchema) {
  return Type.Object(
    { type: Type.Literal(type), timestamp: Type.String({ format: 'date-time', description: 'When it happened' }), data },
    { $id: id, description },
  );
}

const SCHEMAS: Record<OwnerKind, TSchema[]> = {
  connect: [
    event('ConnectSearchFinishedEvent', 'connect.search.finished', 'An async (or timed-out sync) profile search finished: read it with GET /v1/profiles/results/{request_id}', Type.Object({
      request_id: Type.String(),
      status: Type.Union([Type.Literal('complete'), Type.Literal('not_found'), Type.Literal('error')], { description: 'complete: the result is ready; not_found: nobody was found; error: the search failed' }),
    })),
  ],
  enterprise: [
    event('AnalysisFinishedEvent', 'analysis.finished', 'A PDF analysis finished: read it with GET /v1/analysis/{analysis_id}', Type.Object({
      analysis_id: Type.String(),
      source: Type.Literal('pdf'),
      status: Type.Union([Type.Literal('complete'), Type.Literal('no_personality')], { description: 'no_personality: the PDF yielded too little text' }),
    })),
  ],
  user: [
    event('AssessmentCompletedEvent', 'assessment.completed', 'Someone completed the personality test through your link or button', Type.Object({
      result_id: Type.String(),
      email: Type.String({ description: 'The email the taker gave: GET /v1/personality_assessments/find takes it' }),
    })),
    event('AssessmentDeletedEvent', 'assessment.deleted', 'A result of yours was deleted (by its taker, or by the operator erasing the person): delete your copy', Type.Object({
      result_id: Type.String(),
      email: Type.String(),
    })),
  ],
};

const TEST = event('WebhookTestEvent', TEST_EVENT, 'Sent when you ask for a test (POST …/webhooks/{id}/test): never subscribed to', Type.Object({
  endpoint_id: Type.String(),
  message: Type.String(),
}));

/** Adds the event bodies of these owners' webhooks to the host's document. */
export function addWebhookEventSchemas(app: FastifyInstance, owners: readonly OwnerKind[]): void {
  for (const owner of owners) for (const schema of SCHEMAS[owner]) app.addSchema(schema);
  app.addSchema(TEST);
}
