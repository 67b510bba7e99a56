import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Signing as Standard Webhooks defines it, through its own library: HMAC-SHA256 over
 * `{webhook-id}.{webhook-timestamp}.{body}` with the endpoint's secret, sent as `v1,<base64>`.
 */

/** A new signing secret: 32 random bytes, base64, with the `whsec_` prefix the specification gives them. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export interface SigningKeys {
  secret: string;
  /** The secret before the last rotation, still signing until `previousUntil`. */
  previousSecret: string | null;
  previousUntil: Date | null;
}

/**
 * The three headers of one attempt. During a rotation's overlap the body is signed with both
 * secrets, space-separated, so a receiver still holding the old secret verifies it too.
 */
export function signedHeaders(keys: SigningKeys, id: string, body: string, at: Date): Record<string, string> {
  const signatures = [new Webhook(keys.secret).sign(id, at, body)];
  if (keys.previousSecret !== null && keys.previousUntil !== null && keys.previousUntil > at) signatures.push(new Webhook(keys.previousSecret).sign(id, at, body));
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
