import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { AppError, isAppError } from '../../shared/errors.ts';
import type { User } from '../../users/users.ts';
import { createEndpoint, enableEndpoint, listDeliveries, listEndpoints, MAX_ENDPOINTS_PER_OWNER, queueTestEvent, removeEndpoint, rotateSecret } from '../../webhooks/endpoints.ts';
import { EVENTS_FOR, type WebhookOwner } from '../../webhooks/events.ts';
import { disabledNotice, renderWebhooksPage, webhooksCard } from '../../pages/webhooks-page.ts';
import { htmlPage, redirect } from '../common/doc-responses.ts';
import { checkCsrf, currentSession } from './browser-session.ts';
import { field, FormBody, sendHtml, type Form } from './forms.ts';
import { acceptsBody } from '../common/body-caps.ts';

const MEANS: Record<string, string> = {
  'assessment.completed': 'someone completed your test (their email and the result id)',
  'assessment.deleted': 'a result of yours was deleted, by its taker or the operator (its id and email)',
};

const userOwner = (user: User): WebhookOwner => ({ kind: 'user', userId: user.id });

/**
 * What the dashboard shows of this user's webhooks (src/http/web/dashboard.ts): a warning at the
 * top when an endpoint was disabled (empty otherwise), and a card leading to /dashboard/webhooks.
 */
export async function dashboardWebhooks(ctx: AppContext, user: User): Promise<{ alert: string; card: string }> {
  const endpoints = await listEndpoints(ctx.db, userOwner(user));
  return { alert: disabledNotice(endpoints), card: webhooksCard(endpoints) };
}

interface Extras {
  newSecret?: { endpointId: string; secret: string } | null;
  error?: string | null;
  notice?: string | null;
}

async function render(ctx: AppContext, reply: FastifyReply, session: { user: User; sessionId: string }, extras: Extras = {}, status = 200) {
  const owner = userOwner(session.user);
  const endpoints = await listEndpoints(ctx.db, owner);
  const withDeliveries = await Promise.all(endpoints.map(async (e) => ({ ...e, deliveries: await listDeliveries(ctx.db, owner, e.id, 10) })));
  const html = renderWebhooksPage({
    email: session.user.email,
    csrf: await ctx.sessions.csrfToken(session.sessionId),
    endpoints: withDeliveries,
    events: EVENTS_FOR.user.map((type) => ({ type, means: MEANS[type] ?? type })),
    maxEndpoints: MAX_ENDPOINTS_PER_OWNER,
    newSecret: extras.newSecret ?? null,
    error: extras.error ?? null,
    notice: extras.notice ?? null,
  });
  return sendHtml(reply, html, status);
}

async function requireSession(ctx: AppContext, request: FastifyRequest, body: Form | undefined) {
  const session = await currentSession(ctx, request);
  if (!session) throw new AppError('unauthorized', 'Log in to manage your webhooks.');
  await checkCsrf(ctx, request, session.sessionId, field(body, 'csrf'));
  return session;
}

/** A list field of a form: one value or several (checkboxes). */
function values(form: Form | undefined, name: string): string[] {
  const value = form?.[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

const Params = Type.Object({ id: Type.String({ maxLength: 100, description: 'The endpoint id (ep_…)' }) });
const NOTICES: Record<string, string> = { removed: 'Endpoint removed.', enabled: 'Endpoint enabled: events are sent to it again.', test: 'Test event on its way: see the endpoint\'s latest deliveries.' };

/** /dashboard/webhooks: the user's endpoints, for assessment.completed and assessment.deleted. Every form checks the session and its CSRF token. */
export const dashboardWebhookRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const querystring = Type.Object({ done: Type.Optional(Type.String({ maxLength: 20, description: 'What was just done (removed, enabled, test), for the notice at the top' })) });
  app.get('/dashboard/webhooks', { schema: { summary: 'Your webhooks (HTML)', tags: ['Pages'], querystring, response: { 200: htmlPage('The webhooks page'), 303: redirect('Not logged in: on to the log-in form') } } }, async (request, reply) => {
    const session = await currentSession(ctx, request);
    if (!session) return reply.status(303).redirect('/login');
    return render(ctx, reply, session, { notice: NOTICES[request.query.done ?? ''] ?? null });
  });

  app.post('/dashboard/webhooks', { schema: { summary: 'Adds a webhook endpoint', tags: ['Pages'], body: FormBody, response: { 200: htmlPage('The webhooks page, showing the secret once') } }, ...acceptsBody({ bytes: 8192, fields: 16 }, ctx.config.bodyLimitBytes) }, async (request, reply) => {
    const session = await requireSession(ctx, request, request.body);
    try {
      const events = values(request.body, 'events');
      const { endpoint, secret } = await createEndpoint(ctx.db, ctx.webhookAddresses, userOwner(session.user), {
        url: field(request.body, 'url'),
        events,
        description: field(request.body, 'description'),
      });
      return render(ctx, reply, session, { newSecret: { endpointId: endpoint.id, secret }, notice: 'Endpoint added.' });
    } catch (error) {
      if (!isAppError(error) || (error.code !== 'bad_request' && error.code !== 'conflict')) throw error;
      return render(ctx, reply, session, { error: error.message }, error.code === 'conflict' ? 409 : 400);
    }
  });

  type Act = (owner: WebhookOwner, id: string, form: Form | undefined, reply: FastifyReply, session: { user: User; sessionId: string }) => Promise<FastifyReply>;
  const post = (verb: string, summary: string, act: Act) =>
    app.post(`/dashboard/webhooks/:id/${verb}`, { schema: { summary, tags: ['Pages'], params: Params, body: FormBody, response: { 200: htmlPage('The webhooks page'), 303: redirect('Done: back to the webhooks page') } }, ...acceptsBody({ bytes: 1024, fields: 4 }, ctx.config.bodyLimitBytes) }, async (request, reply) => {
      const session = await requireSession(ctx, request, request.body);
      return act(userOwner(session.user), request.params.id, request.body, reply, session);
    });

  post('delete', 'Removes a webhook endpoint', async (owner, id, form, reply, session) => {
    // Removing drops what it had still to receive: only when asked twice.
    if (field(form, 'confirm') !== 'delete') return render(ctx, reply, session, { error: 'Tick the box to remove the endpoint.' }, 400);
    await removeEndpoint(ctx.db, owner, id);
    return reply.status(303).redirect('/dashboard/webhooks?done=removed');
  });
  post('rotate', 'Makes a new signing secret for an endpoint', async (owner, id, _form, reply, session) => {
    const { endpoint, secret } = await rotateSecret(ctx.db, owner, id);
    return render(ctx, reply, session, { newSecret: { endpointId: endpoint.id, secret }, notice: 'New secret made: the old one keeps signing for 24 hours, so switch your receiver to the new one within a day.' });
  });
  post('enable', 'Enables a disabled webhook endpoint again', async (owner, id, _form, reply) => {
    await enableEndpoint(ctx.db, owner, id);
    return reply.status(303).redirect('/dashboard/webhooks?done=enabled');
  });
  post('test', 'Sends a test event to a webhook endpoint', async (owner, id, _form, reply, session) => {
    try {
      await queueTestEvent(ctx.db, owner, id);
    } catch (error) {
      if (!isAppError(error) || error.code !== 'conflict') throw error;
      return render(ctx, reply, session, { error: error.message }, 409);
    }
    ctx.wakeWorker();
    return reply.status(303).redirect('/dashboard/webhooks?done=test');
  });
};
