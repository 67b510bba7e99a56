import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { AppError } from '../shared/errors.ts';

/**
 * Where a webhook may be sent (SSRF). A webhook URL is typed by a caller, and the service then
 * makes requests to it from inside the operator's network, so it is checked twice: when it is
 * registered, and on every attempt, each time after DNS resolution, against every address the
 * name resolves to; the request then goes to the address checked (pinned), so a name that
 * resolves elsewhere a moment later (DNS rebinding) changes nothing. Redirects are never
 * followed (src/webhooks/sender.ts), so a receiver cannot point the request anywhere else.
 */

/** All the addresses a host name resolves to. Swapped for a stub in tests: nothing is ever connected to there. */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

export interface AddressPolicy {
  /** RAPPORT_WEBHOOK_ALLOW_PRIVATE: http, loopback and private networks allowed (tests, on-premise receivers). */
  allowPrivate: boolean;
  resolve: Resolver;
}

/** Never a receiver, whatever the operator allows: the cloud metadata services and their names. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', '168.63.129.16', '192.0.0.192', 'fd00:ec2::254']);
const METADATA_NAMES = ['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal', 'metadata.azure.com'];
/** Ranges that are never a receiver: nothing listens there for us, or it is the machine's own link. */
const NEVER = new Set(['unspecified', 'broadcast', 'multicast', 'linkLocal']);

export const MAX_URL_LENGTH = 2000;

/** Why this address may not receive webhooks, or null when it may. */
export function addressRefusal(address: string, allowPrivate: boolean): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it is.
  const parsed = ipaddr.process(address);
  const plain = parsed.toString();
  if (METADATA_ADDRESSES.has(plain)) return `${plain} is a cloud metadata address`;
  const range = parsed.range();
  if (NEVER.has(range)) return `${plain} is a ${range === 'linkLocal' ? 'link-local' : range} address`;
  if (range === 'unicast' || allowPrivate) return null;
  const said: Record<string, string> = { loopback: 'a loopback', private: 'a private', uniqueLocal: 'a private (unique local)', carrierGradeNat: 'a carrier-grade NAT' };
  return `${plain} is ${said[range] ?? `a special-purpose (${range})`} address`;
}

function isMetadataName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return METADATA_NAMES.some((m) => name === m || name.endsWith(`.${m}`));
}

const NOT_ALLOWED = 'Webhooks go only to public addresses (the operator may allow private ones with RAPPORT_WEBHOOK_ALLOW_PRIVATE)';

/**
 * The URL as typed, checked for its form: https (http too where private addresses are allowed),
 * a host, no user name or password in it, not too long. Nothing is resolved here.
 */
export function parseWebhookUrl(raw: string, allowPrivate: boolean): URL {
  const text = raw.trim();
  if (text.length > MAX_URL_LENGTH) throw new AppError('bad_request', `The webhook URL is longer than ${MAX_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AppError('bad_request', 'The webhook URL is not a URL; give it in full, as https://example.com/hooks/rapport.');
  }
  const schemes = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    throw new AppError('bad_request', `The webhook URL must start with ${allowPrivate ? 'https:// or http://' : 'https:// (plain http is allowed only where the operator allows private addresses)'}.`);
  }
  if (url.username !== '' || url.password !== '') throw new AppError('bad_request', 'The webhook URL must not hold a user name or password; the signature proves who sent each webhook.');
  if (url.hostname === '') throw new AppError('bad_request', 'The webhook URL has no host.');
  url.hash = '';
  return url;
}

/** Thrown when a URL's host may not receive webhooks; a 400 at registration, a failed attempt at delivery. */
export class RefusedAddress extends AppError {
  constructor(message: string) {
    super('bad_request', message);
  }
}

/** The host of a URL without the brackets of an IPv6 literal. */
function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Every address the URL's host resolves to, each checked; refused (RefusedAddress) if any one
 * is not allowed, so a name cannot hide a private address behind a public one. An IP literal
 * is checked as it is.
 */
export async function resolveAllowed(url: URL, policy: AddressPolicy): Promise<string[]> {
  const host = bareHost(url);
  if (isMetadataName(host)) throw new RefusedAddress(`${NOT_ALLOWED}: ${host} is a cloud metadata name.`);
  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      addresses = await policy.resolve(host);
    } catch {
      throw new RefusedAddress(`The webhook host ${host} does not resolve to any address.`);
    }
  }
  if (addresses.length === 0) throw new RefusedAddress(`The webhook host ${host} does not resolve to any address.`);
  for (const address of addresses) {
    const refusal = addressRefusal(address, policy.allowPrivate);
    if (refusal !== null) throw new RefusedAddress(`${NOT_ALLOWED}: ${host === address ? '' : `${host} resolves to `}${refusal}.`);
  }
  return addresses;
}

/** Registration's check: the form, then the addresses. The URL to store, normalised. */
export async function checkWebhookUrl(raw: string, policy: AddressPolicy): Promise<string> {
  const url = parseWebhookUrl(raw, policy.allowPrivate);
  await resolveAllowed(url, policy);
  return url.href;
}
