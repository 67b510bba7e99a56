import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { queryOne, type Db } from '../db/client.ts';
import { findUserById, type User } from './users.ts';

export const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Log-in sessions: a random id in a signed cookie, and a server-side row (only the id's hash)
 * so logging out, disabling a user or a leaked cookie can be ended at once. The signing key is
 * RAPPORT_SESSION_SECRET, or one the service makes on first start and keeps in the database,
 * so every process on one database agrees on it.
 */
export class SessionStore {
  private secret: Promise<string> | null = null;

  constructor(
    private readonly db: Db,
    private readonly configuredSecret: string | null,
    private readonly now: () => number = Date.now,
  ) {}

  private key(): Promise<string> {
    this.secret ??= this.loadSecret();
    return this.secret;
  }

  private async loadSecret(): Promise<string> {
    if (this.configuredSecret) return this.configuredSecret;
    await this.db.query('INSERT INTO service_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', ['cookie_signing', randomBytes(32).toString('base64url')]);
    const row = await queryOne<{ value: string }>(this.db, 'SELECT value FROM service_secrets WHERE name = $1', ['cookie_signing']);
    if (!row) throw new Error('The cookie-signing key was not stored.');
    return row.value;
  }

  private async mac(purpose: string, value: string): Promise<string> {
    return createHmac('sha256', await this.key()).update(`${purpose}:${value}`).digest('base64url');
  }

  /** `<value>.<signature>`: what a cookie carries. */
  async sign(value: string): Promise<string> {
    return `${value}.${await this.mac('cookie', value)}`;
  }

  /** The value of a signed cookie, or null when the signature does not match. */
  async unsign(signed: string | undefined): Promise<string | null> {
    if (!signed) return null;
    const dot = signed.lastIndexOf('.');
    if (dot <= 0) return null;
    const value = signed.slice(0, dot);
    return safeEqual(signed.slice(dot + 1), await this.mac('cookie', value)) ? value : null;
  }

  /** A new session for the user; returns the signed cookie value. */
  async create(userId: string): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    await this.db.query('INSERT INTO user_sessions (id_hash, user_id, expires_at) VALUES ($1, $2, $3)', [sha256(id), userId, new Date(this.now() + SESSION_TTL_MS)]);
    // Expired rows of anyone are cleared now and then, on log-ins, rather than by a timer.
    await this.db.query('DELETE FROM user_sessions WHERE expires_at < $1', [new Date(this.now())]);
    return this.sign(id);
  }

  /** The live user of a session cookie, and the session id, or null (bad signature, expired, ended, disabled). */
  async resolve(cookie: string | undefined): Promise<{ user: User; sessionId: string } | null> {
    const id = await this.unsign(cookie);
    if (!id) return null;
    const row = await queryOne<{ user_id: string }>(this.db, 'SELECT user_id FROM user_sessions WHERE id_hash = $1 AND expires_at > $2', [sha256(id), new Date(this.now())]);
    if (!row) return null;
    const user = await findUserById(this.db, row.user_id);
    if (!user || user.disabledAt) return null;
    return { user, sessionId: id };
  }

  async end(cookie: string | undefined): Promise<void> {
    const id = await this.unsign(cookie);
    if (id) await this.db.query('DELETE FROM user_sessions WHERE id_hash = $1', [sha256(id)]);
  }

  /**
   * A secret derived from a value with the service's key: given again to whoever shows the value
   * again (a test result's key, from its attempt's random id: src/takers/record.ts).
   */
  derive(purpose: string, value: string): Promise<string> {
    return this.mac(`derive:${purpose}`, value);
  }

  /** The anti-forgery token of forms shown under a session (or a pre-log-in cookie's value). */
  csrfToken(sessionOrVisitorId: string): Promise<string> {
    return this.mac('csrf', sessionOrVisitorId);
  }

  async checkCsrf(sessionOrVisitorId: string, presented: unknown): Promise<boolean> {
    return typeof presented === 'string' && safeEqual(presented, await this.csrfToken(sessionOrVisitorId));
  }
}
