import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { describePersonality } from '../../profiles/describe.ts';
import { AppError } from '../../shared/errors.ts';
import { findResult } from '../../takers/queries.ts';
import { deleteAssessment, deleteKeyMatches } from '../../takers/remove.ts';
import { renderMessagePage } from '../../web/app-shell.ts';
import { renderDeleteConfirmPage, renderResultPage } from '../../web/result-page.ts';
import { checkSameOrigin } from './browser-session.ts';
import { field, FormBody, sendHtml } from './forms.ts';
import { acceptsBody } from '../shared/body-caps.ts';
import { htmlPage } from '../shared/doc-responses.ts';
import { discMapUrl, profilePageUrl, publicBase } from '../shared/links.ts';

const Params = Type.Object({ resultId: Type.String({ maxLength: 100, description: 'The result, as the test named it when it was sent' }) });
const KeyQuery = Type.Object({ key: Type.Optional(Type.String({ maxLength: 100, description: "The result's private key, from the link the test taker was given (it lets them see and delete it)" })) });

const GONE = 'This result does not exist or was deleted.';
/** The delete form: its key. */
const DELETE_FORM = { bytes: 1024, fields: 4 };

/**
 * /r/<id>: the result, at an unguessable address only the test taker is sent to. The delete
 * link needs the key that came with the first redirect, so a forwarded result link cannot
 * delete anything.
 */
export const resultPageRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/r/:resultId', { schema: { summary: 'A test result (HTML)', tags: ['Pages'], params: Params, querystring: KeyQuery, response: { 200: htmlPage('The result page') } } }, async (request, reply) => {
    const result = await findResult(ctx.db, request.params.resultId);
    if (!result) throw new AppError('not_found', GONE);
    const { view, content } = describePersonality(result.estimate, result.firstName);
    const base = publicBase(request, ctx.config.publicBaseUrl);
    const key = request.query.key;
    const canDelete = key !== undefined && (await deleteKeyMatches(ctx.db, result.id, key));
    return sendHtml(
      reply,
      renderResultPage({
        firstName: result.firstName,
        archetype: view.archetype,
        discType: view.disc_type,
        discMapUrl: discMapUrl(base, view.point),
        overview: content.overview.slice(0, 3),
        profileUrl: result.publicId === null ? null : profilePageUrl(base, result.publicId),
        confirmation: result.publicId !== null ? 'confirmed' : !ctx.mailer.enabled ? 'no-mail' : result.linkLive ? 'awaiting' : 'lapsed',
        deleteUrl: canDelete && key ? `/r/${encodeURIComponent(result.id)}/delete?key=${encodeURIComponent(key)}` : null,
      }),
    );
  });

  app.get('/r/:resultId/delete', { schema: { summary: 'Asks to confirm deleting a test result (HTML)', tags: ['Pages'], params: Params, querystring: KeyQuery, response: { 200: htmlPage('The confirmation page') } } }, async (request, reply) => {
    const key = request.query.key ?? '';
    if (!(await deleteKeyMatches(ctx.db, request.params.resultId, key))) throw new AppError('not_found', GONE);
    const page = `/r/${encodeURIComponent(request.params.resultId)}`;
    return sendHtml(reply, renderDeleteConfirmPage(`${page}/delete`, key, `${page}?key=${encodeURIComponent(key)}`));
  });

  app.post('/r/:resultId/delete', { schema: { summary: 'Deletes a test result', tags: ['Pages'], params: Params, body: FormBody, response: { 200: htmlPage('A page saying the result is deleted') } }, ...acceptsBody(DELETE_FORM, ctx.config.bodyLimitBytes) }, async (request, reply) => {
    checkSameOrigin(ctx, request);
    // The key is the form's secret: only the holder of the delete link has it.
    await deleteAssessment(ctx.db, request.params.resultId, field(request.body, 'key'));
    return sendHtml(reply, renderMessagePage('Your result is deleted', 'Your answers and your result have been removed from Rapport.'));
  });
};
