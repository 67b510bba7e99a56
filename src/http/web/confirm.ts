import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { followConfirmation, type LinkActions } from '../../confirmations/follow.ts';
import { LINK_NOT_VALID, peekConfirmation } from '../../confirmations/tokens.ts';
import { AppError, isAppError } from '../../shared/errors.ts';
import { confirmResult } from '../../takers/confirm.ts';
import { confirmPasswordReset, newPasswordHash } from '../../users/password-reset.ts';
import { confirmAccount, confirmSignup } from '../../users/signup.ts';
import type { User } from '../../users/users.ts';
import { renderNewPasswordPage } from '../../pages/password-pages.ts';
import { renderMessagePage } from '../../pages/app-shell.ts';
import { renderConfirmPage } from '../../pages/confirm-page.ts';
import { acceptsBody } from '../common/body-caps.ts';
import { htmlPage, redirect } from '../common/doc-responses.ts';
import { profilePageUrl, publicBase } from '../common/links.ts';
import { checkSameOrigin, startSession } from './browser-session.ts';
import { field, FormBody, sendHtml } from './forms.ts';

/** The Confirm button's form: one field. */
const CONFIRM_FORM = { bytes: 1024, fields: 4 };

const Params = Type.Object({ token: Type.String({ maxLength: 100, description: 'The secret of a link sent by mail' }) });

type Followed =
  /** A test result is now the person's profile, at /p/<publicId>. */
  | { purpose: 'result'; publicId: string }
  /** A sign-up is finished: the new account, to log in. */
  | { purpose: 'signup'; user: User }
  /** An account's address is confirmed. */
  | { purpose: 'account' }
  /** An account has a new password (its sessions ended): the account, to log in. */
  | { purpose: 'password'; user: User };

/**
 * Each link's verb, from the folder that mails it (confirmations/ sits below users/ and
 * takers/, so they are joined here). `passwordHash`: the new password a reset link is followed
 * with (its form asks for it); null for the other links.
 */
function linkActions(passwordHash: string | null): LinkActions<Followed> {
  return {
    result: async (tx, confirmation) => ({ purpose: 'result', ...(await confirmResult(tx, confirmation.subjectId ?? '')) }),
    signup: async (tx, confirmation) => ({ purpose: 'signup', user: await confirmSignup(tx, confirmation) }),
    account: async (tx, confirmation) => {
      await confirmAccount(tx, confirmation);
      return { purpose: 'account' };
    },
    password: async (tx, confirmation) => ({ purpose: 'password', user: await confirmPasswordReset(tx, confirmation, passwordHash) }),
  };
}

/**
 * /confirm/<secret>: the links the service mails (a test result to make the taker's profile, a
 * sign-up to finish, an account's address). Opening one shows what it confirms; pressing
 * Confirm (a POST from this site) uses it up and does it.
 */
export const confirmRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  /**
   * A reset link's new password, checked and hashed before the link is used (a refused one
   * leaves the link working and shows its form again: false); null for the other links.
   */
  async function newPasswordFor(token: string, password: string, reply: FastifyReply): Promise<string | null | false> {
    const confirmation = await peekConfirmation(ctx.db, token);
    if (confirmation?.purpose !== 'password') return null;
    try {
      return await newPasswordHash(password);
    } catch (error) {
      if (!isAppError(error) || error.code !== 'bad_request') throw error;
      sendHtml(reply, renderNewPasswordPage(confirmation.email, `/confirm/${encodeURIComponent(token)}`, error.message), 400);
      return false;
    }
  }

  app.get('/confirm/:token', { schema: { summary: 'What a link sent by mail confirms, with its Confirm button (HTML)', tags: ['Pages'], params: Params, response: { 200: htmlPage('The confirmation page') } } }, async (request, reply) => {
    const confirmation = await peekConfirmation(ctx.db, request.params.token);
    if (!confirmation) throw new AppError('not_found', LINK_NOT_VALID);
    const action = `/confirm/${encodeURIComponent(request.params.token)}`;
    if (confirmation.purpose === 'password') return sendHtml(reply, renderNewPasswordPage(confirmation.email, action));
    return sendHtml(reply, renderConfirmPage(confirmation.purpose, confirmation.email, action));
  });

  app.post(
    '/confirm/:token',
    {
      schema: {
        summary: 'Uses a link sent by mail',
        tags: ['Pages'],
        params: Params,
        body: FormBody,
        response: { 200: htmlPage('What the link confirmed'), 303: redirect('A sign-up finished, or a password was reset: on to the dashboard, logged in') },
      },
      ...acceptsBody(CONFIRM_FORM, ctx.config.bodyLimitBytes),
    },
    async (request, reply) => {
      checkSameOrigin(ctx, request);
      const passwordHash = await newPasswordFor(request.params.token, field(request.body, 'password'), reply);
      if (passwordHash === false) return reply;
      const followed = await followConfirmation(ctx.db, request.params.token, linkActions(passwordHash));
      if (followed.purpose === 'signup' || followed.purpose === 'password') {
        await startSession(ctx, request, reply, followed.user);
        return reply.status(303).redirect(followed.purpose === 'password' ? '/dashboard?created=password' : '/dashboard');
      }
      if (followed.purpose === 'account') {
        return sendHtml(reply, renderMessagePage('Your address is confirmed', 'Your account can now create its API token.', { href: '/dashboard', text: 'Go to your dashboard' }));
      }
      const profile = profilePageUrl(publicBase(request, ctx.config.publicBaseUrl), followed.publicId);
      return sendHtml(reply, renderMessagePage('Your result is your profile now', 'People who look you up on this Rapport service see your personality profile from the test.', { href: profile, text: 'See your profile' }));
    },
  );
};
