import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { normalizeEmail } from '../../people/normalize.ts';
import { personalityView } from '../../personality/views.ts';
import { AppError, isAppError } from '../../shared/errors.ts';
import { closeHiringLink } from '../../takers/hiring.ts';
import { listTakers } from '../../takers/queries.ts';
import { removeTaker } from '../../takers/remove.ts';
import { takersCsv } from '../../takers/takers-csv.ts';
import { setOrganisation } from '../../users/users.ts';
import { renderShell } from '../../pages/app-shell.ts';
import { removeTakerBody } from '../../pages/dashboard-people.ts';
import { fileResponse, htmlPage, redirect } from '../common/doc-responses.ts';
import { profilePageUrl, publicBase } from '../common/links.ts';
import { checkCsrf } from './browser-session.ts';
import { render, requireSession } from './dashboard.ts';
import { field, FormBody, sendHtml } from './forms.ts';
import { acceptsBody } from '../common/body-caps.ts';

/** The most rows one CSV holds (newest first); a user with more narrows it with a search. */
const CSV_ROWS = 50_000;
/** The forms: a field or two and the CSRF token. */
const SMALL_FORM = { bytes: 2048, fields: 4 };

/**
 * The dashboard's people: the organisation the test names, the takers' CSV, removing a taker,
 * closing a hiring link. Everything belongs to the session's user; no id in a form picks whose.
 */
export const dashboardPeopleRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post('/dashboard/organisation', { schema: { summary: 'Names the organisation the test says is asking', tags: ['Pages'], body: FormBody, response: { 303: redirect('Saved: back to the dashboard') } }, ...acceptsBody(SMALL_FORM, ctx.config.bodyLimitBytes) }, async (request, reply) => {
    const session = await requireSession(ctx, request);
    await checkCsrf(ctx, request, session.sessionId, field(request.body, 'csrf'));
    try {
      await setOrganisation(ctx.db, session.user.id, field(request.body, 'organisation'));
      return reply.status(303).redirect('/dashboard?created=organisation#org-title');
    } catch (error) {
      if (!isAppError(error) || error.code !== 'bad_request') throw error;
      return render(ctx, request, reply, session, { error: error.message }, 400);
    }
  });

  app.get(
    '/dashboard/takers.csv',
    {
      schema: {
        summary: 'The people who took your test, as CSV',
        tags: ['Pages'],
        querystring: Type.Object({ q: Type.Optional(Type.String({ maxLength: 200, description: 'Only those whose name or email contains this' })) }),
        response: { 200: fileResponse('The takers, newest first', ['text/csv']) },
      },
    },
    async (request, reply) => {
      const session = await requireSession(ctx, request);
      const base = publicBase(request, ctx.config.publicBaseUrl);
      const { takers } = await listTakers(ctx.db, session.user.id, { query: request.query.q ?? '', limit: CSV_ROWS });
      const rows = takers.map((t) => {
        // A type and an archetype: the view alone, no composed content.
        const view = personalityView(t.estimate);
        const profileUrl = t.publicId === null ? null : profilePageUrl(base, t.publicId);
        return { takenAt: t.takenAt, firstName: t.firstName, lastName: t.lastName, email: t.email, discType: view.discType, archetype: view.archetype, role: t.role, profileUrl };
      });
      const name = `rapport-takers-${new Date().toISOString().slice(0, 10)}.csv`;
      return reply.type('text/csv; charset=utf-8').header('cache-control', 'no-store').header('content-disposition', `attachment; filename="${name}"`).send(takersCsv(rows));
    },
  );

  app.get(
    '/dashboard/takers/remove',
    {
      schema: {
        summary: "Asks to confirm removing a taker's results (HTML)",
        tags: ['Pages'],
        querystring: Type.Object({ email: Type.String({ maxLength: 320, description: "The taker's email" }) }),
        response: { 200: htmlPage('The confirmation page') },
      },
    },
    async (request, reply) => {
      const session = await requireSession(ctx, request);
      const normalized = normalizeEmail(request.query.email);
      const results = normalized === null ? [] : await ctx.db.query<{ name: string }>(
        "SELECT trim(COALESCE(first_name, '') || ' ' || COALESCE(last_name, '')) AS name FROM assessments WHERE user_id = $1 AND email_normalized = $2 ORDER BY created_at DESC",
        [session.user.id, normalized],
      );
      if (results.length === 0) throw new AppError('not_found', 'No one with this email took the test through your links.');
      const csrf = await ctx.sessions.csrfToken(session.sessionId);
      const body = removeTakerBody(csrf, { email: request.query.email.trim(), name: results[0]?.name || '—', results: results.length });
      return sendHtml(reply, renderShell({ title: 'Remove a taker · Rapport', body, homeHref: '/dashboard' }));
    },
  );

  app.post('/dashboard/takers/remove', { schema: { summary: "Removes a taker's results", tags: ['Pages'], body: FormBody, response: { 303: redirect('Removed: back to the dashboard') } }, ...acceptsBody(SMALL_FORM, ctx.config.bodyLimitBytes) }, async (request, reply) => {
    const session = await requireSession(ctx, request);
    await checkCsrf(ctx, request, session.sessionId, field(request.body, 'csrf'));
    const normalized = normalizeEmail(field(request.body, 'email'));
    if (normalized === null || (await removeTaker(ctx.db, session.user.id, normalized)) === 0) {
      throw new AppError('not_found', 'No one with this email took the test through your links.');
    }
    return reply.status(303).redirect('/dashboard?created=removed#takers-title');
  });

  app.post('/dashboard/hiring/close', { schema: { summary: 'Closes a hiring link', tags: ['Pages'], body: FormBody, response: { 303: redirect('Closed: back to the dashboard') } }, ...acceptsBody(SMALL_FORM, ctx.config.bodyLimitBytes) }, async (request, reply) => {
    const session = await requireSession(ctx, request);
    await checkCsrf(ctx, request, session.sessionId, field(request.body, 'csrf'));
    await closeHiringLink(ctx.db, session.user.id, field(request.body, 'id'));
    return reply.status(303).redirect('/dashboard?created=closed#hiring-title');
  });
};
