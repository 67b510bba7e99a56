import createClient from 'openapi-fetch';
import { StillProcessingError } from './errors.ts';
import type { operations, paths } from './generated/connect.ts';
import { sleep, unwrap, type ClientOptions } from './runtime.ts';
import type { SearchWebhookWaiter } from './webhooks.ts';

/** C1: who to look for (first and last name; or email; or a text sample with its type). */
export type SearchCriteria = operations['startProfileSearch']['requestBody']['content']['application/json'];

export interface SearchOptions {
  /**
   * Wait for the `connect.search.finished` webhook rather than polling: the waiter your
   * endpoint's handler feeds (SearchWebhookWaiter). The result is still read once it is in,
   * and looked at every `pollIntervalMs` (then 30 s by default) in case a webhook is late.
   */
  webhook?: SearchWebhookWaiter;
  /** Between two looks at the result (default 1,000 ms; 30,000 ms with a webhook). */
  pollIntervalMs?: number;
  /** Give up after this long with a StillProcessingError (default 5 minutes); the search goes on. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Group C, Connect ({connect_url}, `X-Org-Token: <token>`). */
export function connectClient(options: ClientOptions) {
  const api = createClient<paths>({ baseUrl: options.baseUrl, headers: { 'x-org-token': options.token }, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const result = (requestId: string) => unwrap(api.GET('/v1/profiles/results/{request_id}', { params: { path: { request_id: requestId } } }));
  const startSearch = async (criteria: SearchCriteria) => (await unwrap(api.POST('/v1/profiles/async', { body: criteria }))).request_id;

  /** Looks until the search is no longer processing, woken early by its webhook when there is one. */
  async function waitFor(requestId: string, wait: SearchOptions) {
    const started = Date.now();
    const timeoutMs = wait.timeoutMs ?? 300_000;
    const interval = wait.pollIntervalMs ?? (wait.webhook ? 30_000 : 1000);
    for (;;) {
      const answer = await result(requestId);
      if (answer.status !== 'processing') return answer;
      const left = timeoutMs - (Date.now() - started);
      if (left <= 0) throw new StillProcessingError(requestId, Date.now() - started);
      const pause = new AbortController();
      const stop = () => pause.abort(wait.signal?.reason);
      wait.signal?.addEventListener('abort', stop, { once: true });
      try {
        const slept = sleep(Math.min(interval, left), pause.signal);
        await (wait.webhook ? Promise.race([slept, wait.webhook.wait(requestId, pause.signal)]) : slept);
      } finally {
        wait.signal?.removeEventListener('abort', stop);
        // Whichever came first, the other one stops waiting.
        pause.abort();
      }
      if (wait.signal?.aborted) throw wait.signal.reason;
    }
  }

  return {
    usage: () => unwrap(api.GET('/v1/usage')),
    /** Searches and waits on the service's side: C2 (200), or `{request_id}` (202) when it took longer than the service waits. */
    searchSync: (criteria: SearchCriteria) => unwrap(api.POST('/v1/profiles', { body: criteria })),
    /** Starts an async search and answers its request id at once. */
    startSearch,
    /** The search as it stands: processing, complete (C2) or error; a RapportError not_found when nobody was found. */
    result,
    /**
     * Starts an async search and waits for its outcome, by polling or by its webhook: the
     * complete profile, or the error status; a RapportError not_found when nobody was found.
     */
    async search(criteria: SearchCriteria, wait: SearchOptions = {}) {
      return waitFor(await startSearch(criteria), wait);
    },
    /** Waits for a search started earlier (startSearch). */
    waitForSearch: (requestId: string, wait: SearchOptions = {}) => waitFor(requestId, wait),
    relationship: (profileOne: string, profileTwo: string) =>
      unwrap(api.GET('/v1/relationships/{profile_one}/{profile_two}', { params: { path: { profile_one: profileOne, profile_two: profileTwo } } })),
    /** Recommendations on a draft from `sender` to `recipient` (request ids of completed searches). */
    messageRecommendations: (sender: string, recipient: string, text: string) =>
      unwrap(api.POST('/v1/messaging/{sender}/{recipient}', { params: { path: { sender, recipient } }, body: { text } })),
    sampleEmails: (requestId: string) => unwrap(api.GET('/v1/emails/{request_id}', { params: { path: { request_id: requestId } } })),
    webhooks: {
      list: () => unwrap(api.GET('/v1/webhooks')),
      /** Registers an endpoint; the answer's `secret` is shown this once. */
      create: (body: { url: string; events?: Array<'connect.search.finished'>; description?: string }) => unwrap(api.POST('/v1/webhooks', { body })),
      remove: (id: string) => unwrap(api.DELETE('/v1/webhooks/{id}', { params: { path: { id } } })),
      rotateSecret: (id: string) => unwrap(api.POST('/v1/webhooks/{id}/rotate-secret', { params: { path: { id } } })),
      enable: (id: string) => unwrap(api.POST('/v1/webhooks/{id}/enable', { params: { path: { id } } })),
      test: (id: string) => unwrap(api.POST('/v1/webhooks/{id}/test', { params: { path: { id } } })),
      deliveries: (id: string) => unwrap(api.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id } } })),
    },
  };
}

export type ConnectClient = ReturnType<typeof connectClient>;
