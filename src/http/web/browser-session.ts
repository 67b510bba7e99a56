import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../shared/errors.ts';
import { SESSION_TTL_MS } from '../../users/sessions.ts';
import type { User } from '../../users/users.ts';
import { publicBase } from '../common/links.ts';

export const SESSION_COOKIE = 'rapport_session';
/** A random value for visitors not logged in, so the sign-up and log-in forms carry a CSRF token too. */
export const VISITOR_COOKIE = 'rapport_visitor';

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

function secure(request: FastifyRequest, ctx: AppContext): boolean {
  return request.protocol === 'https' || (ctx.config.publicBaseUrl?.startsWith('https:') ?? false);
}

/** HttpOnly (no script reads it), SameSite=Lax (not sent on cross-site posts), Secure over https. */
export function setCookie(reply: FastifyReply, request: FastifyRequest, ctx: AppContext, name: string, value: string, maxAgeMs: number): void {
  const parts = [`${name}=${encodeURIComponent(value)}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${Math.floor(maxAgeMs / 1000)}`];
  if (secure(request, ctx)) parts.push('Secure');
  const previous = reply.getHeader('set-cookie');
  const list = Array.isArray(previous) ? previous : typeof previous === 'string' ? [previous] : [];
  reply.header('set-cookie', [...list, parts.join('; ')]);
}

export function clearCookie(reply: FastifyReply, request: FastifyRequest, ctx: AppContext, name: string): void {
  setCookie(reply, request, ctx, name, '', 0);
}

/** The logged-in user of this request, or null. */
export async function currentSession(ctx: AppContext, request: FastifyRequest): Promise<{ user: User; sessionId: string } | null> {
  return ctx.sessions.resolve(readCookie(request, SESSION_COOKIE));
}

export async function startSession(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, user: User): Promise<void> {
  // A new id at log-in: a session id planted before log-in is worth nothing after it.
  await ctx.sessions.end(readCookie(request, SESSION_COOKIE));
  setCookie(reply, request, ctx, SESSION_COOKIE, await ctx.sessions.create(user.id), SESSION_TTL_MS);
}

/** The visitor id behind the pre-log-in forms' CSRF token; sets the cookie when there is none. */
export async function visitorId(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<string> {
  const existing = await ctx.sessions.unsign(readCookie(request, VISITOR_COOKIE));
  if (existing) return existing;
  const id = randomBytes(24).toString('base64url');
  setCookie(reply, request, ctx, VISITOR_COOKIE, await ctx.sessions.sign(id), 24 * 60 * 60 * 1000);
  return id;
}

/**
 * A form post must come from a page of this service: a browser's Origin (or, without it, its
 * Referer) must be this origin. Posts with neither (curl) still need the form's CSRF token.
 */
export function checkSameOrigin(ctx: AppContext, request: FastifyRequest): void {
  const expected = new URL(publicBase(request, ctx.config.publicBaseUrl)).origin;
  const origin = request.headers.origin;
  const referer = request.headers.referer;
  const claimed = typeof origin === 'string' ? origin : typeof referer === 'string' ? referer : null;
  let seen: string | null = null;
  if (claimed !== null) {
    try {
      seen = new URL(claimed).origin;
    } catch {
      // "null" (a sandboxed or privacy-stripped origin) or junk: not this site.
      seen = 'invalid';
    }
  }
  if (seen !== null && seen !== expected) throw new AppError('forbidden', 'This form was sent from another site; open the page on this site and send it again.');
}

/** Checks a form's CSRF token against the session (or the visitor cookie before log-in). */
export async function checkCsrf(ctx: AppContext, request: FastifyRequest, ownerId: string | null, presented: unknown): Promise<void> {
  checkSameOrigin(ctx, request);
  if (ownerId === null || !(await ctx.sessions.checkCsrf(ownerId, presented))) {
    throw new AppError('forbidden', 'This form has expired or did not come from this site; reload the page and send it again.');
  }
}

/** The visitor id of a pre-log-in form post, from its cookie (null when missing or forged). */
export function postedVisitorId(ctx: AppContext, request: FastifyRequest): Promise<string | null> {
  return ctx.sessions.unsign(readCookie(request, VISITOR_COOKIE));
}

/** Client address for log-in limits: the connection's (the service does not trust forwarded headers). */
export function clientAddress(request: FastifyRequest): string {
  return request.ip || 'unknown';
}
