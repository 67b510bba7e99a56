import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { randomBytes } from 'node:crypto';
import { Type } from 'typebox';
import type { Questionnaire } from '../../assessment/questionnaire.ts';
import type { AppContext } from '../../context.ts';
import { normalizeEmail } from '../../people/normalize.ts';
import { AppError, isAppError } from '../../shared/errors.ts';
import { resolveTestLink } from '../../takers/hiring.ts';
import { resultPath, submitTest } from '../../takers/submit.ts';
import { organisationOf } from '../../users/users.ts';
import { renderTestPage, type TestPageModel } from '../../pages/test-page.ts';
import { clientNetwork } from '../../access/network.ts';
import { checkSameOrigin, clientAddress } from './browser-session.ts';
import { acceptsBody } from '../common/body-caps.ts';
import { htmlPage, redirect } from '../common/doc-responses.ts';
import { field, FormBody, sendHtml, type Form } from './forms.ts';

const Params = Type.Object({ linkId: Type.String({ maxLength: 100, description: 'The test link, from the dashboard (button or hiring link)' }) });

const getSchema = {
  summary: 'The personality test (HTML): /t/{id} is a user\'s test link, /h/{id} one of their hiring links',
  tags: ['Pages'],
  params: Params,
  querystring: Type.Object({ api_user_email: Type.Optional(Type.String({ maxLength: 320, description: "The test taker's email, URL-encoded; without it the page asks for it" })) }),
  response: { 200: htmlPage('The test') },
};

const postSchema = {
  summary: 'Submits the test; redirects to the result page',
  tags: ['Pages'],
  params: Params,
  body: FormBody,
  response: { 303: redirect('Answers stored: on to the result page') },
};

async function linkOf(ctx: AppContext, kind: 't' | 'h', linkId: string) {
  const link = await resolveTestLink(ctx.db, kind, linkId);
  if (!link) throw new AppError('not_found', 'This test link does not exist or is no longer active. Ask whoever sent it for a new one.');
  return link;
}

/** Answers arrive as fields "q.<item id>"; anything else in the form is not an answer. */
function answersOf(form: Form): Record<string, number> {
  const answers: Record<string, number> = {};
  for (const [name, value] of Object.entries(form)) {
    if (!name.startsWith('q.')) continue;
    if (Array.isArray(value)) throw new AppError('bad_request', 'A question was answered more than once in one submission.');
    answers[name.slice(2)] = /^\d{1,2}$/.test(value) ? Number(value) : Number.NaN;
  }
  return answers;
}

/**
 * The test form: 48 answers and a few fields (email, names, submission id), room to spare. A
 * name of 200 characters, %-encoded, is under 2 KB; the whole form under 8 KB.
 */
const TEST_FORM = { bytes: 16 * 1024, fields: 64 };

export const testPageRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext; questionnaire: Questionnaire }> = async (app, { ctx, questionnaire }) => {
  const testForm = acceptsBody(TEST_FORM, ctx.config.bodyLimitBytes);
  for (const kind of ['t', 'h'] as const) {
    app.get(`/${kind}/:linkId`, { schema: { ...getSchema, hide: kind === 'h' } }, async (request, reply) => {
      const { linkId } = request.params;
      const link = await linkOf(ctx, kind, linkId);
      const given = request.query.api_user_email;
      const apiUserEmail = given && normalizeEmail(given) ? given.trim() : null;
      return sendHtml(
        reply,
        renderTestPage({
          action: `/${kind}/${linkId}`,
          questionnaire,
          apiUserEmail,
          submissionId: randomBytes(18).toString('base64url'),
          storageKey: `${kind}-${linkId.slice(-12)}`,
          hiring: link.hiring ? { role: link.hiring.role, url: link.hiring.url } : null,
          organisationName: await organisationOf(ctx.db, link.userId),
          mailConfirms: ctx.mailer.enabled,
        }),
      );
    });

    app.post(`/${kind}/:linkId`, { schema: { ...postSchema, hide: kind === 'h' }, ...testForm }, async (request, reply) => {
      const { linkId } = request.params;
      checkSameOrigin(ctx, request);
      const link = await linkOf(ctx, kind, linkId);
      const form = request.body;
      const apiUserEmail = field(form, 'api_user_email').trim();
      const answers = answersOf(form);
      const model: TestPageModel = {
        action: `/${kind}/${linkId}`,
        questionnaire,
        apiUserEmail: apiUserEmail || null,
        submissionId: field(form, 'submission_id') || randomBytes(18).toString('base64url'),
        storageKey: `${kind}-${linkId.slice(-12)}`,
        hiring: link.hiring ? { role: link.hiring.role, url: link.hiring.url } : null,
        organisationName: await organisationOf(ctx.db, link.userId),
        mailConfirms: ctx.mailer.enabled,
        consented: field(form, 'consent') === 'yes',
        answers,
        firstName: field(form, 'first_name'),
        lastName: field(form, 'last_name'),
        email: field(form, 'email'),
      };
      try {
        const deps = { db: ctx.db, mailer: ctx.mailer, publicBaseUrl: ctx.config.publicBaseUrl, resultKey: (id: string) => ctx.sessions.derive('result-key', id) };
        const stored = await submitTest(deps, questionnaire, { userId: link.userId, hiringLinkId: link.hiring?.id ?? null, key: `${kind}:${linkId}` }, {
          submissionId: model.submissionId,
          email: apiUserEmail || model.email || '',
          firstName: model.firstName ?? '',
          lastName: model.lastName ?? '',
          answers,
          network: clientNetwork(clientAddress(request)),
          consented: model.consented === true,
        });
        // A repeat (sent twice, or Back and send again) lands on the first result, which says so.
        const target = stored.deleteKey ? `${resultPath(stored.id, stored.deleteKey)}${stored.repeated ? '&again=1' : ''}` : `/r/${encodeURIComponent(stored.id)}`;
        return reply.status(303).header('cache-control', 'no-store').redirect(target);
      } catch (error) {
        if (!isAppError(error) || (error.code !== 'bad_request' && error.code !== 'rate_limited')) throw error;
        // The answers come back in the page, so a refused test can be sent again later.
        if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
        return sendHtml(reply, renderTestPage({ ...model, error: error.message }), error.code === 'rate_limited' ? 429 : 400);
      }
    });
  }
};
