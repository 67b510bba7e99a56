/**
 * @rapport/client: typed calls to Rapport's three APIs. The types come from the service's
 * OpenAPI documents (src/generated, regenerated with `npm run client:types` in the service's
 * repository); the calls go through openapi-fetch, and errors arrive as RapportError.
 */
export { enterpriseClient, type EnterpriseClient, type PdfSource, type WaitOptions } from './enterprise.ts';
export { assessmentClient, type AssessmentClient } from './assessment.ts';
export { connectClient, type ConnectClient, type SearchCriteria, type SearchOptions } from './connect.ts';
export { RapportError, StillProcessingError, type ErrorCode } from './errors.ts';
export type { ClientOptions } from './runtime.ts';
export {
  SearchWebhookWaiter,
  verifyWebhook,
  WebhookVerificationError,
  type AnalysisFinishedEvent,
  type AssessmentCompletedEvent,
  type AssessmentDeletedEvent,
  type ConnectSearchFinishedEvent,
  type HeadersLike,
  type WebhookEvent,
  type WebhookTestEvent,
} from './webhooks.ts';
export type * as BaseApi from './generated/base.ts';
export type * as ConnectApi from './generated/connect.ts';
