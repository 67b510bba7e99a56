import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { components as Base } from './generated/base.ts';
import type { components as Connect } from './generated/connect.ts';

export { WebhookVerificationError };

export type ConnectSearchFinishedEvent = Connect['schemas']['ConnectSearchFinishedEvent'];
export type AnalysisFinishedEvent = Base['schemas']['AnalysisFinishedEvent'];
export type AssessmentCompletedEvent = Base['schemas']['AssessmentCompletedEvent'];
export type AssessmentDeletedEvent = Base['schemas']['AssessmentDeletedEvent'];
export type WebhookTestEvent = Base['schemas']['WebhookTestEvent'];
/** Every body a Rapport webhook carries; narrow it on `type`. */
export type WebhookEvent = ConnectSearchFinishedEvent | AnalysisFinishedEvent | AssessmentCompletedEvent | AssessmentDeletedEvent | WebhookTestEvent;

/** Request headers as Node's http module, fetch's Headers or a plain object give them. */
export type HeadersLike = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeadersLike, name: string): string {
  if (headers instanceof Headers) return headers.get(name) ?? '';
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}

/**
 * Checks a webhook's Standard Webhooks signature (webhook-id, webhook-timestamp within five
 * minutes, webhook-signature) against the endpoint's secret and answers its event; throws
 * WebhookVerificationError otherwise. Give it the body exactly as received (the raw text, not
 * re-serialised JSON). During a rotation, pass both secrets: either one verifies. Deliveries are
 * retried with the same webhook-id: keep the ids you handled, and skip a repeat.
 */
export function verifyWebhook(secret: string | readonly string[], body: string | Uint8Array, headers: HeadersLike): WebhookEvent & { id: string } {
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const signed = {
    'webhook-id': header(headers, 'webhook-id'),
    'webhook-timestamp': header(headers, 'webhook-timestamp'),
    'webhook-signature': header(headers, 'webhook-signature'),
  };
  let failure: unknown = new WebhookVerificationError('No secret to verify with');
  for (const each of typeof secret === 'string' ? [secret] : secret) {
    try {
      return { ...(new Webhook(each).verify(text, signed) as WebhookEvent), id: signed['webhook-id'] };
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}

/**
 * Lets `connect.search()` wait for the `connect.search.finished` webhook instead of polling:
 * your endpoint's handler passes every request it receives to `receive()`, which verifies it
 * and wakes the search waiting on it. Events that come before anyone waits are kept (the last
 * 1,000), so a search that finishes at once is not missed.
 */
export class SearchWebhookWaiter {
  private readonly arrived = new Map<string, ConnectSearchFinishedEvent>();
  private readonly waiting = new Map<string, Array<(event: ConnectSearchFinishedEvent) => void>>();

  constructor(private readonly secret: string | readonly string[]) {}

  /** Verifies one received webhook (throws WebhookVerificationError when it does not verify) and answers its event. */
  receive(body: string | Uint8Array, headers: HeadersLike): WebhookEvent & { id: string } {
    const event = verifyWebhook(this.secret, body, headers);
    if (event.type === 'connect.search.finished') {
      const requestId = event.data.request_id;
      const wakers = this.waiting.get(requestId);
      this.waiting.delete(requestId);
      if (wakers) for (const wake of wakers) wake(event);
      else this.remember(requestId, event);
    }
    return event;
  }

  /** Resolves when the search's webhook is in (at once if it came already); rejects when `signal` aborts. */
  wait(requestId: string, signal?: AbortSignal): Promise<ConnectSearchFinishedEvent> {
    const early = this.arrived.get(requestId);
    if (early) {
      this.arrived.delete(requestId);
      return Promise.resolve(early);
    }
    return new Promise((resolve, reject) => {
      const wake = (event: ConnectSearchFinishedEvent) => {
        signal?.removeEventListener('abort', stop);
        resolve(event);
      };
      const stop = () => {
        const rest = (this.waiting.get(requestId) ?? []).filter((w) => w !== wake);
        if (rest.length > 0) this.waiting.set(requestId, rest);
        else this.waiting.delete(requestId);
        reject(signal?.reason);
      };
      if (signal?.aborted) return reject(signal.reason);
      signal?.addEventListener('abort', stop, { once: true });
      this.waiting.set(requestId, [...(this.waiting.get(requestId) ?? []), wake]);
    });
  }

  private remember(requestId: string, event: ConnectSearchFinishedEvent): void {
    this.arrived.set(requestId, event);
    if (this.arrived.size > 1000) {
      const oldest = this.arrived.keys().next();
      if (!oldest.done) this.arrived.delete(oldest.value);
    }
  }
}
