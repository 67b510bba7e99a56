import { randomBytes } from 'node:crypto';
import { Type } from 'typebox';
import { resetPassword } from '../users/password-reset.ts';
import { createUser, disableUser, listUsers, type User } from '../users/users.ts';
import { defineVerb } from './verb.ts';

export function userView(user: User) {
  return {
    id: user.id,
    email: user.email,
    test_link_id: user.testLinkId,
    created_at: user.createdAt.toISOString(),
    disabled_at: user.disabledAt ? user.disabledAt.toISOString() : null,
    email_confirmed_at: user.emailConfirmedAt ? user.emailConfirmedAt.toISOString() : null,
  };
}
export type UserView = ReturnType<typeof userView>;

export const userVerbs = {
  /** Without a password, one is made and returned once (the operator hands it over). The operator vouches for the address: it counts as confirmed. */
  'users.create': defineVerb(Type.Object({ email: Type.String(), password: Type.Optional(Type.String()) }), async (ctx, args) => {
    const generated = args.password === undefined ? randomBytes(12).toString('base64url') : null;
    const user = await createUser(ctx.db, { email: args.email, password: args.password ?? generated ?? '', confirmed: true });
    return { ...userView(user), ...(generated ? { password: generated } : {}) };
  }),
  /** Without a password, one is made and returned once; the account's sessions end either way. */
  'users.reset-password': defineVerb(Type.Object({ user: Type.String({ minLength: 1 }), password: Type.Optional(Type.String()) }), async (ctx, args) => {
    const generated = args.password === undefined ? randomBytes(12).toString('base64url') : null;
    const user = await ctx.db.transaction((tx) => resetPassword(tx, args.user, args.password ?? generated ?? ''));
    return { ...userView(user), ...(generated ? { password: generated } : {}) };
  }),
  'users.list': defineVerb(Type.Object({}), async (ctx) => (await listUsers(ctx.db)).map(userView)),
  'users.disable': defineVerb(Type.Object({ user: Type.String({ minLength: 1 }) }), async (ctx, args) => {
    const { user, revokedTokenIds } = await ctx.db.transaction((tx) => disableUser(tx, args.user));
    for (const id of revokedTokenIds) ctx.auth.forget(id);
    return { ...userView(user), revoked_tokens: revokedTokenIds.length };
  }),
};
