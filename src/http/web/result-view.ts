import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { composeTakerResult } from '../../content/taker/compose-result.ts';
import type { TakerResultContent } from '../../content/taker/result.ts';
import { cleanFirstName } from '../../content/text.ts';
import { personalityView } from '../../personality/views.ts';
import type { ResultView } from '../../takers/queries.ts';
import { takerStanding } from '../../takers/standing.ts';
import { discMapKey, parseDiscMapKey, renderDiscMapSvg } from '../../pages/disc-map.ts';
import type { ResultPageModel } from '../../pages/result-page.ts';
import type { ResultReport } from '../../pages/result-report.ts';
import { discMapUrl, profilePageUrl, publicBase } from '../common/links.ts';

/** The result as the page and the PDF say it: composed for the taker, with their standing among this service's takers. */
export async function reportOf(ctx: AppContext, content: TakerResultContent, result: ResultView): Promise<ResultReport> {
  const view = personalityView(result.estimate);
  return {
    firstName: cleanFirstName(result.firstName),
    result: composeTakerResult(content, view, result.estimate.scores, result.estimate.source === 'assessment'),
    takenAt: result.createdAt,
    email: result.email,
    organisationName: result.organisationName,
    standing: await takerStanding(ctx.db, result.id, result.estimate),
  };
}

/** The page's model but its owner's tools (the key's view adds them). */
export async function pageModelOf(
  ctx: AppContext,
  request: FastifyRequest,
  content: TakerResultContent,
  result: ResultView,
): Promise<Omit<ResultPageModel, 'owner' | 'sharedPdfUrl' | 'again'>> {
  const base = publicBase(request, ctx.config.publicBaseUrl);
  return {
    report: await reportOf(ctx, content, result),
    discMapUrl: discMapUrl(base, personalityView(result.estimate).point),
    profileUrl: result.publicId === null ? null : profilePageUrl(base, result.publicId),
    confirmation: result.publicId !== null ? 'confirmed' : !ctx.mailer.enabled ? 'no-mail' : result.linkLive ? 'awaiting' : 'lapsed',
  };
}

/** The DISC map as a PNG for the PDF, drawn by the map renderer (cached by point); null when it cannot be drawn now. */
export async function mapPngOf(ctx: AppContext, result: ResultView): Promise<Uint8Array | null> {
  const point = personalityView(result.estimate).point;
  const key = discMapKey(point);
  try {
    return await ctx.discMaps.png(key, renderDiscMapSvg(parseDiscMapKey(key) ?? point));
  } catch (error) {
    // A busy renderer (503) leaves the map out of the PDF rather than failing the download.
    ctx.logger.warn({ err: error }, 'the DISC map could not be drawn for a PDF');
    return null;
  }
}

/** A file name that says what the PDF is, in ASCII (the header carries no other). */
export function pdfFileName(report: ResultReport): string {
  return `rapport-result-${report.result.discType}-${report.takenAt.toISOString().slice(0, 10)}.pdf`;
}
