import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import type { TakerResultContent } from '../../content/taker/result.ts';
import { AppError } from '../../shared/errors.ts';
import { findResult } from '../../takers/queries.ts';
import { deleteAssessment, deleteKeyMatches } from '../../takers/remove.ts';
import { shareResult, unshareResult } from '../../takers/share.ts';
import { resultPath } from '../../takers/submit.ts';
import { renderMessagePage } from '../../pages/app-shell.ts';
import { renderResultPdf } from '../../pages/result-pdf.ts';
import { renderDeleteConfirmPage, renderResultPage } from '../../pages/result-page.ts';
import { checkSameOrigin } from './browser-session.ts';
import { field, FormBody, sendHtml } from './forms.ts';
import { acceptsBody } from '../common/body-caps.ts';
import { fileResponse, htmlPage, redirect } from '../common/doc-responses.ts';
import { publicBase } from '../common/links.ts';
import { mapPngOf, pageModelOf, pdfFileName, reportOf } from './result-view.ts';

const Params = Type.Object({ resultId: Type.String({ maxLength: 100, description: 'The result, as the test named it when it was sent' }) });
const KeyQuery = Type.Object({
  key: Type.Optional(Type.String({ maxLength: 100, description: "The result's key, from the link the test taker was given: it opens the result, its PDF, its private link and its delete link" })),
  again: Type.Optional(Type.String({ maxLength: 4, description: 'Set when the same answers were sent again: the page says this is the result they gave' })),
});

/** One answer for a result that does not exist, was deleted, and a wrong or missing key: which one is nobody's business. */
const GONE = 'This result does not exist, was deleted, or the link to it is not complete: open it from the link you were given when you finished the test.';
/** The delete form: its key. */
const DELETE_FORM = { bytes: 1024, fields: 4 };

/**
 * /r/<id>?key=<key>: the result, at an unguessable address only the test taker is sent to; the
 * key opens it (a wrong or missing key shows nothing), with its PDF, a private link to share it,
 * and the delete link, so a forwarded profile or shared link can never delete or reshare it.
 */
export const resultPageRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext; content: TakerResultContent }> = async (app, { ctx, content }) => {
  async function owned(resultId: string, key: string | undefined) {
    const result = key ? await findResult(ctx.db, resultId, key) : null;
    if (!result || !key) throw new AppError('not_found', GONE);
    return { result, key };
  }

  app.get('/r/:resultId', { schema: { summary: 'A test result, for its taker (HTML)', tags: ['Pages'], params: Params, querystring: KeyQuery, response: { 200: htmlPage('The result page') } } }, async (request, reply) => {
    const { result, key } = await owned(request.params.resultId, request.query.key);
    const page = `/r/${encodeURIComponent(result.id)}`;
    const k = `key=${encodeURIComponent(key)}`;
    const base = publicBase(request, ctx.config.publicBaseUrl);
    return sendHtml(
      reply,
      renderResultPage({
        ...(await pageModelOf(ctx, request, content, result)),
        owner: {
          key,
          pdfUrl: `${page}/report.pdf?${k}`,
          deleteUrl: `${page}/delete?${k}`,
          shareUrl: result.shareId === null ? null : `${base}/s/${encodeURIComponent(result.shareId)}`,
          shareAction: `${page}/share`,
          unshareAction: `${page}/share/off`,
          mailed: ctx.mailer.enabled && ctx.config.publicBaseUrl !== null,
        },
        sharedPdfUrl: null,
        again: request.query.again === '1',
      }),
    );
  });

  app.get(
    '/r/:resultId/report.pdf',
    { schema: { summary: 'A test result as a PDF, for its taker', tags: ['Pages'], params: Params, querystring: KeyQuery, response: { 200: fileResponse('The result as a PDF', ['application/pdf']) } } },
    async (request, reply) => {
      const { result } = await owned(request.params.resultId, request.query.key);
      const report = await reportOf(ctx, content, result);
      const pdf = await renderResultPdf(report, await mapPngOf(ctx, result));
      return reply.type('application/pdf').header('cache-control', 'no-store').header('content-disposition', `attachment; filename="${pdfFileName(report)}"`).send(Buffer.from(pdf));
    },
  );

  for (const [suffix, summary, act] of [
    ['share', 'Makes a private link to a test result', shareResult],
    ['share/off', 'Turns a test result\'s private link off', unshareResult],
  ] as const) {
    app.post(`/r/:resultId/${suffix}`, { schema: { summary, tags: ['Pages'], params: Params, body: FormBody, response: { 303: redirect('Back to the result page') } }, ...acceptsBody(DELETE_FORM, ctx.config.bodyLimitBytes) }, async (request, reply) => {
      checkSameOrigin(ctx, request);
      // The key is the form's secret, as for deleting: only the result's taker has it.
      const key = field(request.body, 'key');
      await act(ctx.db, request.params.resultId, key);
      return reply.status(303).redirect(`${resultPath(request.params.resultId, key)}#keep-title`);
    });
  }

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
    return sendHtml(reply, renderMessagePage('Your result is deleted', 'Your answers and your result have been removed from Rapport, and its private link no longer works.'));
  });
};
