import type { FastifyInstance, FastifyRequest } from 'fastify';
import { admitCall } from '../../accounts/access.ts';
import type { ApiToken, TokenKind } from '../../accounts/tokens.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../shared/errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    apiToken: ApiToken | null;
  }
}

/** Where each group's callers put their token (the contract's Authentication table). */
export type TokenReader = (request: FastifyRequest) => string | undefined;

export const readBearer: TokenReader = (request) => {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
};

export const readQueryToken: TokenReader = (request) => {
  const query = request.query as Record<string, unknown> | undefined;
  const token = query?.token;
  return typeof token === 'string' && token.length > 0 ? token : undefined;
};

export const readOrgToken: TokenReader = (request) => {
  const header = request.headers['x-org-token'];
  return typeof header === 'string' && header.length > 0 ? header.trim() : undefined;
};

/**
 * Adds the group's auth hook to an encapsulated plugin: every route inside needs a live token
 * of this kind, is rate limited and metered. Tokens of another group get 401.
 */
export function installTokenAuth(app: FastifyInstance, ctx: AppContext, kind: TokenKind, read: TokenReader): void {
  app.addHook('onRequest', async (request, reply) => {
    const token = await ctx.auth.authenticate(read(request), kind);
    request.apiToken = token;
    const rate = await admitCall(ctx, token, new Date());
    if (rate) {
      reply.header('x-ratelimit-limit', String(rate.limit));
      reply.header('x-ratelimit-remaining', String(rate.remaining));
      reply.header('x-ratelimit-reset', String(rate.resetInSeconds));
    }
  });
}

/** The token the group's hook admitted; routes run only after it. */
export function tokenOf(request: FastifyRequest): ApiToken {
  if (!request.apiToken) throw new AppError('internal', 'Route reached without an authenticated token.');
  return request.apiToken;
}
