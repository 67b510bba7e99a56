import { Type } from 'typebox';
import { createToken, listTokens, revokeToken, setTokenLimits, TOKEN_KINDS, type ApiToken } from '../access/tokens.ts';
import { defineVerb } from './verb.ts';

/** The largest value the integer columns for limits hold. */
export const MAX_LIMIT = 2_147_483_647;

/** A limit, or null for none. Bounded to what the column holds, so the caller hears why, not the database. */
const Limit = Type.Union([Type.Integer({ minimum: 0, maximum: MAX_LIMIT }), Type.Null()]);

export function tokenView(token: ApiToken) {
  return {
    id: token.id,
    kind: token.kind,
    name: token.name,
    prefix: token.prefix,
    monthly_quota: token.monthlyQuota,
    rate_limit_per_minute: token.rateLimitPerMinute,
    created_at: token.createdAt.toISOString(),
    revoked_at: token.revokedAt ? token.revokedAt.toISOString() : null,
  };
}
export type TokenView = ReturnType<typeof tokenView>;

export const tokenVerbs = {
  'tokens.create': defineVerb(
    Type.Object({
      kind: Type.Enum(TOKEN_KINDS),
      name: Type.String(),
      monthly_quota: Type.Optional(Limit),
      rate_limit_per_minute: Type.Optional(Limit),
    }),
    async (ctx, args) => {
      const { token, secret } = await createToken(ctx.db, {
        kind: args.kind,
        name: args.name,
        limits: {
          ...(args.monthly_quota !== undefined ? { monthlyQuota: args.monthly_quota } : {}),
          ...(args.rate_limit_per_minute !== undefined ? { rateLimitPerMinute: args.rate_limit_per_minute } : {}),
        },
      });
      return { ...tokenView(token), token: secret };
    },
  ),
  'tokens.list': defineVerb(Type.Object({}), async (ctx) => (await listTokens(ctx.db)).map(tokenView)),
  'tokens.revoke': defineVerb(Type.Object({ id: Type.String() }), async (ctx, args) => {
    const { token, alreadyRevoked } = await revokeToken(ctx.db, args.id);
    ctx.auth.forget(token.id);
    return { ...tokenView(token), already_revoked: alreadyRevoked };
  }),
  'tokens.limits': defineVerb(
    Type.Object({ id: Type.String(), monthly_quota: Type.Optional(Limit), rate_limit_per_minute: Type.Optional(Limit) }),
    async (ctx, args) => {
      const token = await setTokenLimits(ctx.db, args.id, {
        ...(args.monthly_quota !== undefined ? { monthlyQuota: args.monthly_quota } : {}),
        ...(args.rate_limit_per_minute !== undefined ? { rateLimitPerMinute: args.rate_limit_per_minute } : {}),
      });
      ctx.auth.forget(token.id);
      return tokenView(token);
    },
  ),
};
