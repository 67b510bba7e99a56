import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { usageSummary } from '../../access/admission.ts';
import type { AppContext } from '../../context.ts';
import { personalityView } from '../../personality/views.ts';
import { AppError, isAppError } from '../../shared/errors.ts';
import { createHiringLink, listHiringLinks } from '../../takers/hiring.ts';
import { listTakers } from '../../takers/queries.ts';
import { activeUserToken, issueUserToken, mayHaveToken } from '../../users/api-token.ts';
import { requestAccountConfirmation } from '../../users/signup.ts';
import { organisationOf, type User } from '../../users/users.ts';
import { renderDashboard } from '../../pages/dashboard-page.ts';
import { acceptsBody } from '../common/body-caps.ts';
import { htmlPage, redirect } from '../common/doc-responses.ts';
import { profilePageUrl, publicBase } from '../common/links.ts';
import { checkCsrf, currentSession } from './browser-session.ts';
import { dashboardWebhooks } from './dashboard-webhooks.ts';
import { field, FormBody, sendHtml } from './forms.ts';

interface Extras {
  newSecret?: string | null;
  error?: string | null;
  notice?: string | null;
  /** The takers' search. */
  query?: string;
}

export async function render(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, session: { user: User; sessionId: string }, extras: Extras = {}, status = 200) {
  const { user } = session;
  const base = publicBase(request, ctx.config.publicBaseUrl);
  const token = await activeUserToken(ctx.db, user.id);
  const usage = token ? await usageSummary(ctx, token, new Date()) : null;
  const query = extras.query?.trim() ?? '';
  const listed = await listTakers(ctx.db, user.id, { query });
  const takers = listed.takers.map((t) => {
    // A type and an archetype: the view alone, no composed content.
    const view = personalityView(t.estimate);
    return {
      name: [t.firstName, t.lastName].filter((n): n is string => !!n).join(' ') || '—',
      email: t.email ?? '',
      discType: view.discType,
      archetype: view.archetype,
      takenAt: t.takenAt,
      profileUrl: t.publicId === null ? null : profilePageUrl(base, t.publicId),
      role: t.role,
    };
  });
  const webhooks = await dashboardWebhooks(ctx, user);
  const hiring = (await listHiringLinks(ctx.db, user.id)).map((h) => ({ id: h.id, role: h.role, url: h.url, testUrl: `${base}/h/${h.id}`, createdAt: h.createdAt, closedAt: h.closedAt }));
  const html = renderDashboard({
    email: user.email,
    csrf: await ctx.sessions.csrfToken(session.sessionId),
    testUrl: `${base}/t/${user.testLinkId}`,
    token: token ? { prefix: token.prefix, createdAt: token.createdAt } : null,
    newSecret: extras.newSecret ?? null,
    usage: usage ? { callsThisMonth: usage.callsThisMonth, monthlyQuota: usage.monthlyQuota, rateLimitPerMinute: usage.rateLimitPerMinute, month: usage.month } : null,
    organisationName: await organisationOf(ctx.db, user.id),
    takers,
    takersTotal: listed.total,
    query,
    hiring,
    mailEnabled: ctx.mailer.enabled,
    mustConfirmForToken: !mayHaveToken(ctx.mailer, user),
    error: extras.error ?? null,
    notice: extras.notice ?? null,
    alerts: [webhooks.alert],
    sections: [webhooks.card],
  });
  return sendHtml(reply, html, status);
}

export async function requireSession(ctx: AppContext, request: FastifyRequest) {
  const session = await currentSession(ctx, request);
  if (!session) throw new AppError('unauthorized', 'Log in to see your dashboard.');
  return session;
}

/** The token form: its CSRF token and the rotate box. The hiring form adds a role and a URL of up to 2,000 characters. */
const TOKEN_FORM = { bytes: 1024, fields: 4 };
const HIRING_FORM = { bytes: 24 * 1024, fields: 6 };

const ROTATE_UNCONFIRMED = 'Tick the box to rotate: the live token stops working at once, for every app that uses it.';

/** Everything on the dashboard belongs to the session's user; no id in a URL or form picks whose. */
export const dashboardRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const querystring = Type.Object({
    created: Type.Optional(Type.String({ maxLength: 20, description: 'Set by the dashboard after it did something, to say so once' })),
    q: Type.Optional(Type.String({ maxLength: 200, description: 'Shows only the takers whose name or email contains this' })),
  });
  app.get('/dashboard', { schema: { summary: 'The dashboard (HTML)', tags: ['Pages'], querystring, response: { 200: htmlPage('The dashboard'), 303: redirect('Not logged in: on to the log-in form') } } }, async (request, reply) => {
    const session = await currentSession(ctx, request);
    if (!session) return reply.status(303).redirect('/login');
    const notices = new Map([
      ['hiring', 'Hiring link created.'],
      ['closed', 'Hiring link closed: it takes no more tests.'],
      ['organisation', 'Saved: the test names your organisation as who is asking.'],
      ['removed', 'Removed: their results are deleted.'],
      ['password', 'Your new password is set, and you are logged in. Other sessions of your account have ended.'],
      ['confirm-email', `We are mailing a link to ${session.user.email}: open it to confirm your address.`],
    ]);
    return render(ctx, request, reply, session, { notice: notices.get(request.query.created ?? '') ?? null, query: request.query.q ?? '' });
  });

  app.post('/dashboard/token', { schema: { summary: 'Creates or rotates the API token', tags: ['Pages'], body: FormBody, response: { 200: htmlPage('The dashboard, showing the new token once') } }, ...acceptsBody(TOKEN_FORM, ctx.config.bodyLimitBytes) }, async (request, reply) => {
    const session = await requireSession(ctx, request);
    await checkCsrf(ctx, request, session.sessionId, field(request.body, 'csrf'));
    // Rotating revokes the live token at once, for every app using it: only when asked twice.
    if ((await activeUserToken(ctx.db, session.user.id)) && field(request.body, 'confirm') !== 'rotate') {
      return render(ctx, request, reply, session, { error: ROTATE_UNCONFIRMED }, 400);
    }
    const { secret } = await issueUserToken(ctx, session.user);
    return render(ctx, request, reply, session, { newSecret: secret });
  });

  app.post('/dashboard/confirm-email', { schema: { summary: "Mails a link that confirms the account's address", tags: ['Pages'], body: FormBody, response: { 303: redirect('Link on its way: back to the dashboard') } }, ...acceptsBody(TOKEN_FORM, ctx.config.bodyLimitBytes) }, async (request, reply) => {
    const session = await requireSession(ctx, request);
    await checkCsrf(ctx, request, session.sessionId, field(request.body, 'csrf'));
    try {
      await requestAccountConfirmation({ db: ctx.db, mailer: ctx.mailer, publicBaseUrl: ctx.config.publicBaseUrl }, session.user);
      return reply.status(303).redirect('/dashboard?created=confirm-email');
    } catch (error) {
      if (!isAppError(error) || (error.code !== 'bad_request' && error.code !== 'rate_limited')) throw error;
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      return render(ctx, request, reply, session, { error: error.message }, error.code === 'rate_limited' ? 429 : 400);
    }
  });

  app.post('/dashboard/hiring', { schema: { summary: 'Creates a hiring link', tags: ['Pages'], body: FormBody, response: { 303: redirect('Link created: back to the dashboard') } }, ...acceptsBody(HIRING_FORM, ctx.config.bodyLimitBytes) }, async (request, reply) => {
    const session = await requireSession(ctx, request);
    await checkCsrf(ctx, request, session.sessionId, field(request.body, 'csrf'));
    try {
      await createHiringLink(ctx.db, session.user.id, { role: field(request.body, 'role'), url: field(request.body, 'url') });
      // Post/redirect/get: reloading the dashboard must not create the link again.
      return reply.status(303).redirect('/dashboard?created=hiring');
    } catch (error) {
      if (!isAppError(error) || error.code !== 'bad_request') throw error;
      return render(ctx, request, reply, session, { error: error.message }, 400);
    }
  });
};
