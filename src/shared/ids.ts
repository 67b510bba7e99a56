import { randomBytes } from 'node:crypto';

/**
 * Random bytes drawn 4 KiB at a time and handed out once each: a call into the system's random
 * source per id cost more than the id itself (an import makes two a person: ~4 % of its main
 * thread). Each thread has its own pool; no byte is used twice.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let used = 0;

/** An unguessable public identifier with a readable prefix, e.g. `an_4f9c…`. */
export function newId(prefix: string, bytes = 12): string {
  if (used + bytes > pool.length) {
    pool = randomBytes(Math.max(POOL_BYTES, bytes));
    used = 0;
  }
  const id = pool.toString('base64url', used, used + bytes);
  used += bytes;
  return `${prefix}_${id}`;
}
