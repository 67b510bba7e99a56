import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clientNetwork } from '../../access/network.ts';
import type { AppContext } from '../../context.ts';
import { isAppError } from '../../shared/errors.ts';
import { requestPasswordReset } from '../../users/password-reset.ts';
import { renderResetRequestPage } from '../../pages/password-pages.ts';
import { htmlPage } from '../common/doc-responses.ts';
import { checkCsrf, clientAddress, postedVisitorId, visitorId } from './browser-session.ts';
import { field, FormBody, sendHtml } from './forms.ts';
import { acceptsBody } from '../common/body-caps.ts';

/** Said for every address, with an account or not: whether one exists is not told to strangers. */
const MAILED = 'If an account has this address, we are mailing it a link to choose a new password. It works for two hours.';

/**
 * /password-reset: a forgotten password. Where the service sends mail, the account's address is
 * mailed a link (`/confirm/<secret>`, which asks for the new password); without mail, the page
 * says to ask the operator (`rapport users reset-password`).
 */
export const passwordResetRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/password-reset', { schema: { summary: 'Asks for a password-reset link (HTML)', tags: ['Pages'], response: { 200: htmlPage('The form, or how to ask the operator where the service sends no mail') } } }, async (request, reply) => {
    const csrf = await ctx.sessions.csrfToken(await visitorId(ctx, request, reply));
    return sendHtml(reply, renderResetRequestPage({ csrf, mailEnabled: ctx.mailer.enabled }));
  });

  app.post('/password-reset', { schema: { summary: 'Mails a password-reset link', tags: ['Pages'], body: FormBody, response: { 200: htmlPage('The same answer for every address') } }, ...acceptsBody({ bytes: 2048, fields: 4 }, ctx.config.bodyLimitBytes) }, async (request, reply) => {
    await checkCsrf(ctx, request, await postedVisitorId(ctx, request), field(request.body, 'csrf'));
    const csrf = await ctx.sessions.csrfToken(await visitorId(ctx, request, reply));
    const email = field(request.body, 'email');
    try {
      await requestPasswordReset({ db: ctx.db, mailer: ctx.mailer, publicBaseUrl: ctx.config.publicBaseUrl }, { email, network: clientNetwork(clientAddress(request)) });
      return sendHtml(reply, renderResetRequestPage({ csrf, mailEnabled: ctx.mailer.enabled, email, notice: MAILED }));
    } catch (error) {
      if (!isAppError(error) || (error.code !== 'bad_request' && error.code !== 'rate_limited')) throw error;
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      return sendHtml(reply, renderResetRequestPage({ csrf, mailEnabled: ctx.mailer.enabled, email, error: error.message }), error.code === 'rate_limited' ? 429 : 400);
    }
  });
};
