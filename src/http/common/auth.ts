import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { admitCall, admitUnlimitedCall } from '../../access/admission.ts';
import { apiName, WrongTokenKind } from '../../access/authenticator.ts';
import type { ApiToken, TokenKind } from '../../access/tokens.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../shared/errors.ts';
import { missingTokenHint, wrongKindMessage } from './wrong-door.ts';

declare module 'fastify' {
  interface FastifyRequest {
    apiToken: ApiToken | null;
  }
}

/** Where each group's callers put their token (the contract's Authentication table). */
export interface TokenSource {
  read(request: FastifyRequest): string | undefined;
  /** For the 401 when it is missing: where the token goes. */
  where: string;
}

export const bearerToken: TokenSource = {
  read(request) {
    const header = request.headers.authorization?.trim();
    if (!header) return undefined;
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (match?.[1]) return match[1];
    // A header that is there but malformed is not a missing token: say what is wrong, without
    // echoing any of it (the first word may be the secret itself, sent without a scheme).
    if (/^Bearer(\s|$)/i.test(header)) {
      throw new AppError('unauthorized', 'The Authorization header is malformed: it must be "Bearer <token>", with exactly one token and no spaces in it.');
    }
    throw new AppError('unauthorized', 'The Authorization header uses another scheme than Bearer (or none): send "Authorization: Bearer <token>".');
  },
  where: 'send it in the header "Authorization: Bearer <token>"',
};

export const queryToken: TokenSource = {
  read(request) {
    const query = request.query as Record<string, unknown> | undefined;
    const token = query?.token;
    // Two tokens are not a missing one: say what is wrong rather than "missing".
    if (Array.isArray(token)) throw new AppError('bad_request', 'The query parameter "token" is given more than once; send it once.');
    return typeof token === 'string' && token.length > 0 ? token : undefined;
  },
  where: 'add it to the URL as the query parameter "?token=<token>"',
};

export const orgToken: TokenSource = {
  read(request) {
    const header = request.headers['x-org-token'];
    return typeof header === 'string' && header.length > 0 ? header.trim() : undefined;
  },
  where: 'send it in the header "X-Org-Token: <token>"',
};

/** Said with how each API takes its token, and where Connect lives. */
function explained(error: unknown): unknown {
  return error instanceof WrongTokenKind ? new AppError('unauthorized', wrongKindMessage(error.needed, error.sent)) : error;
}

/**
 * Adds the group's auth hook to an encapsulated plugin: every route inside needs a live token
 * of this kind, is rate limited and metered. Tokens of another group get 401. A token read in
 * the last second with no limit to check is admitted without waiting on anything (no promise):
 * the common case of a busy integration costs a map lookup and a count.
 */
export function installTokenAuth(app: FastifyInstance, ctx: AppContext, kind: TokenKind, source: TokenSource): void {
  const admit = async (request: FastifyRequest, reply: FastifyReply, secret: string) => {
    const token = await ctx.auth.authenticate(secret, kind).catch((error: unknown) => {
      throw explained(error);
    });
    request.apiToken = token;
    const rate = await admitCall(ctx, token, new Date());
    if (rate) {
      reply.header('x-ratelimit-limit', String(rate.limit));
      reply.header('x-ratelimit-remaining', String(rate.remaining));
      reply.header('x-ratelimit-reset', String(rate.resetInSeconds));
    }
  };
  app.addHook('onRequest', (request, reply, done) => {
    const secret = source.read(request);
    if (!secret) throw new AppError('unauthorized', `Missing API token for ${apiName(kind)}: ${source.where}.${missingTokenHint(kind, request, ctx.config)}`);
    let known: ApiToken | undefined;
    try {
      known = ctx.auth.known(secret, kind);
    } catch (error) {
      throw explained(error);
    }
    if (known && admitUnlimitedCall(ctx, known, new Date())) {
      request.apiToken = known;
      return done();
    }
    admit(request, reply, secret).then(() => done(), done);
  });
}

/** The token the group's hook admitted; routes run only after it. */
export function tokenOf(request: FastifyRequest): ApiToken {
  if (!request.apiToken) throw new AppError('internal', 'Route reached without an authenticated token.');
  return request.apiToken;
}
