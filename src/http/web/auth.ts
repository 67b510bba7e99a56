import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientNetwork } from '../../access/network.ts';
import type { AppContext } from '../../context.ts';
import { isAppError } from '../../shared/errors.ts';
import { logIn } from '../../users/login.ts';
import { requestSignup } from '../../users/signup.ts';
import { renderAuthPage, type AuthPageModel } from '../../pages/auth-pages.ts';
import { checkCsrf, clearCookie, currentSession, postedVisitorId, SESSION_COOKIE, startSession, visitorId, clientAddress, readCookie } from './browser-session.ts';
import { acceptsBody } from '../common/body-caps.ts';
import { htmlPage, redirect } from '../common/doc-responses.ts';
import { field, FormBody, sendHtml } from './forms.ts';

/** Said to a sign-up for a taken address too: an account's existence is not told to strangers. */
const SIGNUP_CHECK = 'If this address can be used, your account is ready: log in with it.';
/** The same where mail is set up: the account is made when the mailed link is followed. */
const SIGNUP_MAILED = 'If this address can be used for an account, we are mailing it a link: open it to finish creating your account.';
const SIGNUP_CLOSED = 'Sign-up is closed on this service; ask its operator for an account.';

async function page(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, model: Omit<AuthPageModel, 'csrf' | 'signupOpen' | 'mailConfirms'>, status = 200) {
  const csrf = await ctx.sessions.csrfToken(await visitorId(ctx, request, reply));
  return sendHtml(reply, renderAuthPage({ ...model, csrf, signupOpen: ctx.config.signup, mailConfirms: ctx.mailer.enabled }), status);
}

/** Email, password (200 characters at most, %-encoded up to 9 bytes each) and the CSRF token. */
const ACCOUNT_FORM = { bytes: 8 * 1024, fields: 8 };
const LOGOUT_FORM = { bytes: 1024, fields: 4 };

export const authRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const accountForm = acceptsBody(ACCOUNT_FORM, ctx.config.bodyLimitBytes);
  app.get('/signup', { schema: { summary: 'Sign-up form (HTML)', tags: ['Pages'], response: { 200: htmlPage('The sign-up form') } } }, async (request, reply) => {
    if (!ctx.config.signup) return page(ctx, request, reply, { mode: 'login', error: SIGNUP_CLOSED }, 403);
    return page(ctx, request, reply, { mode: 'signup' });
  });

  app.post(
    '/signup',
    { schema: { summary: 'Asks for an account', tags: ['Pages'], body: FormBody, response: { 200: htmlPage('The log-in form with what comes next: the same answer for a new address and one that has an account') } }, ...accountForm },
    async (request, reply) => {
      await checkCsrf(ctx, request, await postedVisitorId(ctx, request), field(request.body, 'csrf'));
      if (!ctx.config.signup) return page(ctx, request, reply, { mode: 'login', error: SIGNUP_CLOSED }, 403);
      const email = field(request.body, 'email');
      try {
        const deps = { db: ctx.db, mailer: ctx.mailer, publicBaseUrl: ctx.config.publicBaseUrl };
        await requestSignup(deps, { email, password: field(request.body, 'password'), network: clientNetwork(clientAddress(request)) });
        // No session either way: logging a new account in at once would tell it from a taken address.
        return page(ctx, request, reply, { mode: 'login', email, notice: ctx.mailer.enabled ? SIGNUP_MAILED : SIGNUP_CHECK });
      } catch (error) {
        if (!isAppError(error) || (error.code !== 'bad_request' && error.code !== 'rate_limited')) throw error;
        if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
        return page(ctx, request, reply, { mode: 'signup', email, error: error.message }, error.code === 'rate_limited' ? 429 : 400);
      }
    },
  );

  app.get('/login', { schema: { summary: 'Log-in form (HTML)', tags: ['Pages'], response: { 200: htmlPage('The log-in form'), 303: redirect('Already logged in: on to the dashboard') } } }, async (request, reply) => {
    if (await currentSession(ctx, request)) return reply.status(303).redirect('/dashboard');
    return page(ctx, request, reply, { mode: 'login' });
  });

  app.post('/login', { schema: { summary: 'Logs in', tags: ['Pages'], body: FormBody, response: { 303: redirect('Logged in: on to the dashboard') } }, ...accountForm }, async (request, reply) => {
    await checkCsrf(ctx, request, await postedVisitorId(ctx, request), field(request.body, 'csrf'));
    const email = field(request.body, 'email');
    try {
      const user = await logIn({ db: ctx.db, limiter: ctx.limiter }, { email, password: field(request.body, 'password'), address: clientAddress(request) });
      await startSession(ctx, request, reply, user);
      return reply.status(303).redirect('/dashboard');
    } catch (error) {
      if (!isAppError(error) || (error.code !== 'unauthorized' && error.code !== 'rate_limited')) throw error;
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      return page(ctx, request, reply, { mode: 'login', email, error: error.message }, error.code === 'rate_limited' ? 429 : 401);
    }
  });

  app.post('/logout', { schema: { summary: 'Logs out', tags: ['Pages'], body: FormBody, response: { 303: redirect('Logged out: back to the log-in form') } }, ...acceptsBody(LOGOUT_FORM, ctx.config.bodyLimitBytes) }, async (request, reply) => {
    const session = await currentSession(ctx, request);
    if (session) {
      await checkCsrf(ctx, request, session.sessionId, field(request.body, 'csrf'));
      await ctx.sessions.end(readCookie(request, SESSION_COOKIE));
    }
    clearCookie(reply, request, ctx, SESSION_COOKIE);
    return reply.status(303).redirect('/login');
  });
};
