import createClient from 'openapi-fetch';
import type { paths } from './generated/base.ts';
import { unwrap, type ClientOptions } from './runtime.ts';

/** Group B, Assessment ({base_url}, `?token=<token>` on every call). */
export function assessmentClient(options: ClientOptions) {
  const api = createClient<paths>({ baseUrl: options.baseUrl, ...(options.fetch ? { fetch: options.fetch } : {}) });
  // The API takes its token in the query string: every call gets it.
  api.use({
    onRequest({ request }) {
      const url = new URL(request.url);
      url.searchParams.set('token', options.token);
      return new Request(url, request);
    },
  });
  return {
    usage: () => unwrap(api.GET('/v1/personality_assessments/usage')),
    /** B1 for someone who took the test through your links; a RapportError not_found otherwise. */
    find: (email: string, find: { hiring?: boolean } = {}) =>
      unwrap(api.GET('/v1/personality_assessments/find', { params: { query: { email, ...(find.hiring === undefined ? {} : { 'options[hiring]': find.hiring }) } } })),
    webhooks: {
      list: () => unwrap(api.GET('/v1/personality_assessments/webhooks')),
      /** Registers an endpoint; the answer's `secret` is shown this once. */
      create: (body: { url: string; events?: Array<'assessment.completed' | 'assessment.deleted'>; description?: string }) => unwrap(api.POST('/v1/personality_assessments/webhooks', { body })),
      remove: (id: string) => unwrap(api.DELETE('/v1/personality_assessments/webhooks/{id}', { params: { path: { id } } })),
      rotateSecret: (id: string) => unwrap(api.POST('/v1/personality_assessments/webhooks/{id}/rotate-secret', { params: { path: { id } } })),
      enable: (id: string) => unwrap(api.POST('/v1/personality_assessments/webhooks/{id}/enable', { params: { path: { id } } })),
      test: (id: string) => unwrap(api.POST('/v1/personality_assessments/webhooks/{id}/test', { params: { path: { id } } })),
      deliveries: (id: string) => unwrap(api.GET('/v1/personality_assessments/webhooks/{id}/deliveries', { params: { path: { id } } })),
    },
  };
}

export type AssessmentClient = ReturnType<typeof assessmentClient>;
