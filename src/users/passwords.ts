import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * scrypt with N=2^15, r=8, p=1 (about 32 MiB and tens of milliseconds): slow enough that a
 * stolen table is expensive to attack, fast enough for a log-in. The parameters are stored
 * with each hash, so they can be raised later without breaking old passwords.
 */
const PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 200;

function derive(password: string, salt: Buffer, options: { N: number; r: number; p: number }): Promise<Buffer> {
  const scryptOptions: ScryptOptions = { ...options, maxmem: 256 * options.N * options.r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, scryptOptions, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  // Bounded so a tampered row cannot make a log-in allocate gigabytes.
  if (Number(n) > 2 ** 17 || Number(r) > 16 || Number(p) > 4) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * The hash of a random password nobody knows: verified against when no user has the address,
 * so a log-in for an unknown email takes as long as one with a wrong password.
 */
export const DUMMY_PASSWORD_HASH = 'scrypt$32768$8$1$sbJxVJp5_fs1Wo2EqbrDuw$NuT7-rcTxHsbwLYZXIhJ1n-12QmRckm5L9TzyIQDuVw';
