import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { packageVersion } from '../shared/version.ts';
import { RefusedAddress, resolveAllowed, type AddressPolicy } from './address-check.ts';

/** What one attempt came to. */
export interface AttemptResult {
  ok: boolean;
  /** The receiver's status; null when it gave none (refused, timed out, not allowed). */
  status: number | null;
  /** Why it failed, for the owner (deliveries list); null on success. Never holds the URL. */
  error: string | null;
  /** The receiver's Retry-After, in ms, where it sent one. */
  retryAfterMs: number | null;
  /** 410 Gone: the receiver wants no more (Standard Webhooks: disable the endpoint). */
  gone: boolean;
}

function retryAfterOf(value: string | undefined): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** A lookup that answers with the address already checked, so the connection goes exactly there. */
function pinnedLookup(address: string): LookupFunction {
  const family = ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4;
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

function failed(error: string, status: number | null = null, retryAfterMs: number | null = null): AttemptResult {
  return { ok: false, status, error, retryAfterMs, gone: status === 410 };
}

/**
 * Sends webhook attempts: one POST, after the address check of every attempt, within the
 * timeout (connecting, and the answer's status line and headers), never following a redirect
 * (a 3xx is a failure: Standard Webhooks asks the owner to update the URL instead). Any 2xx is
 * a success; the answer's body is read and dropped. Connections are kept alive between attempts.
 */
export class WebhookSender {
  private readonly agents = { 'http:': new http.Agent({ keepAlive: true, maxSockets: 64 }), 'https:': new https.Agent({ keepAlive: true, maxSockets: 64 }) };
  private readonly userAgent = `Rapport-Webhooks/${packageVersion()}`;

  constructor(
    private readonly policy: AddressPolicy,
    private readonly timeoutMs: number,
  ) {}

  async send(target: string, headers: Record<string, string>, body: string): Promise<AttemptResult> {
    const url = new URL(target);
    let address: string;
    try {
      const addresses = await resolveAllowed(url, this.policy);
      address = addresses[0] ?? '';
    } catch (error) {
      return failed(error instanceof RefusedAddress ? error.message : 'The address check failed.');
    }
    return this.post(url, address, headers, body);
  }

  private post(url: URL, address: string, headers: Record<string, string>, body: string): Promise<AttemptResult> {
    const isHttps = url.protocol === 'https:';
    const client = isHttps ? https : http;
    return new Promise((resolve) => {
      let settled = false;
      const settle = (result: AttemptResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const request = client.request(
        {
          protocol: url.protocol,
          hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
          port: url.port === '' ? undefined : Number(url.port),
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          agent: isHttps ? this.agents['https:'] : this.agents['http:'],
          lookup: pinnedLookup(address),
          headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': this.userAgent },
        },
        (response) => {
          // Read and dropped, so the connection can serve the next attempt.
          response.resume();
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) return settle({ ok: true, status, error: null, retryAfterMs: null, gone: false });
          const retryAfter = retryAfterOf(response.headers['retry-after']);
          if (status >= 300 && status < 400) return settle(failed(`The receiver answered ${status}, a redirect; redirects are not followed: give the endpoint its final URL.`, status));
          settle(failed(`The receiver answered ${status}.`, status, retryAfter));
        },
      );
      const timer = setTimeout(() => {
        settle(failed(`The receiver did not answer within ${this.timeoutMs / 1000} s.`));
        request.destroy();
      }, this.timeoutMs);
      request.on('error', (error: NodeJS.ErrnoException) => {
        settle(failed(`Could not reach the receiver (${error.code ?? error.message}).`));
      });
      request.end(body);
    });
  }

  close(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }
}
