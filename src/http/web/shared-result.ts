import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import type { TakerResultContent } from '../../content/taker/result.ts';
import { AppError } from '../../shared/errors.ts';
import { findSharedResult } from '../../takers/queries.ts';
import { renderResultPdf } from '../../pages/result-pdf.ts';
import { renderResultPage } from '../../pages/result-page.ts';
import { readerView } from '../../pages/result-report.ts';
import { sendHtml } from './forms.ts';
import { fileResponse, htmlPage } from '../common/doc-responses.ts';
import { mapPngOf, pageModelOf, pdfFileName, reportOf } from './result-view.ts';

const Params = Type.Object({ shareId: Type.String({ maxLength: 100, description: "A test result's private link, made by its taker on their result page" }) });
const GONE = 'This link does not work: its owner turned it off or deleted the result, or it is not complete.';

/**
 * /s/<id>: a result its taker chose to share, read-only, without the address it is filed under
 * or who sent the test (readerView). It never holds the result's key, so
 * nothing here can delete the result, make another link or turn this one off; when the taker
 * turns it off or deletes the result, it answers 404.
 */
export const sharedResultRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext; content: TakerResultContent }> = async (app, { ctx, content }) => {
  async function shared(shareId: string) {
    const result = await findSharedResult(ctx.db, shareId);
    if (!result) throw new AppError('not_found', GONE);
    return result;
  }

  app.get('/s/:shareId', { schema: { summary: 'A test result its taker shared (HTML, read-only)', tags: ['Pages'], params: Params, response: { 200: htmlPage('The shared result') } } }, async (request, reply) => {
    const result = await shared(request.params.shareId);
    const model = await pageModelOf(ctx, request, content, result);
    const report = readerView(model.report);
    const pdfUrl = `/s/${encodeURIComponent(request.params.shareId)}/report.pdf`;
    return sendHtml(reply, renderResultPage({ ...model, report, owner: null, sharedPdfUrl: pdfUrl, again: false }));
  });

  app.get(
    '/s/:shareId/report.pdf',
    { schema: { summary: 'A shared test result as a PDF', tags: ['Pages'], params: Params, response: { 200: fileResponse('The result as a PDF', ['application/pdf']) } } },
    async (request, reply) => {
      const result = await shared(request.params.shareId);
      const report = readerView(await reportOf(ctx, content, result));
      const pdf = await renderResultPdf(report, await mapPngOf(ctx, result));
      return reply.type('application/pdf').header('cache-control', 'no-store').header('content-disposition', `attachment; filename="${pdfFileName(report)}"`).send(Buffer.from(pdf));
    },
  );
};
