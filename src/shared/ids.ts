import { randomBytes } from 'node:crypto';

/** An unguessable public identifier with a readable prefix, e.g. `an_4f9c…`. */
export function newId(prefix: string, bytes = 12): string {
  return `${prefix}_${randomBytes(bytes).toString('base64url')}`;
}
