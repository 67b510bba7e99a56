import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { followConfirmation } from '../../confirmations/follow.ts';
import { LINK_NOT_VALID, peekConfirmation } from '../../confirmations/tokens.ts';
import { AppError } from '../../shared/errors.ts';
import { renderMessagePage } from '../../web/app-shell.ts';
import { renderConfirmPage } from '../../web/confirm-page.ts';
import { acceptsBody } from '../shared/body-caps.ts';
import { htmlPage, redirect } from '../shared/doc-responses.ts';
import { profilePageUrl, publicBase } from '../shared/links.ts';
import { checkSameOrigin, startSession } from './browser-session.ts';
import { FormBody, sendHtml } from './forms.ts';

/** The Confirm button's form: one field. */
const CONFIRM_FORM = { bytes: 1024, fields: 4 };

const Params = Type.Object({ token: Type.String({ maxLength: 100, description: 'The secret of a link sent by mail' }) });

/**
 * /confirm/<secret>: the links the service mails (a test result to make the taker's profile, a
 * sign-up to finish, an account's address). Opening one shows what it confirms; pressing
 * Confirm (a POST from this site) uses it up and does it.
 */
export const confirmRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/confirm/:token', { schema: { summary: 'What a link sent by mail confirms, with its Confirm button (HTML)', tags: ['Pages'], params: Params, response: { 200: htmlPage('The confirmation page') } } }, async (request, reply) => {
    const confirmation = await peekConfirmation(ctx.db, request.params.token);
    if (!confirmation) throw new AppError('not_found', LINK_NOT_VALID);
    return sendHtml(reply, renderConfirmPage(confirmation.purpose, confirmation.email, `/confirm/${encodeURIComponent(request.params.token)}`));
  });

  app.post(
    '/confirm/:token',
    {
      schema: {
        summary: 'Uses a link sent by mail',
        tags: ['Pages'],
        params: Params,
        body: FormBody,
        response: { 200: htmlPage('What the link confirmed'), 303: redirect('A sign-up finished: on to the dashboard, logged in') },
      },
      ...acceptsBody(CONFIRM_FORM, ctx.config.bodyLimitBytes),
    },
    async (request, reply) => {
      checkSameOrigin(ctx, request);
      const followed = await followConfirmation(ctx.db, request.params.token);
      if (followed.purpose === 'signup') {
        await startSession(ctx, request, reply, followed.user);
        return reply.status(303).redirect('/dashboard');
      }
      if (followed.purpose === 'account') {
        return sendHtml(reply, renderMessagePage('Your address is confirmed', 'Your account can now create its API token.', { href: '/dashboard', text: 'Go to your dashboard' }));
      }
      const profile = profilePageUrl(publicBase(request, ctx.config.publicBaseUrl), followed.publicId);
      return sendHtml(reply, renderMessagePage('Your result is your profile now', 'People who look you up on this Rapport service see your personality profile from the test.', { href: profile, text: 'See your profile' }));
    },
  );
};
