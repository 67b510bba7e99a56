import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { DiscPoint } from '../../personality/types.ts';
import { Type } from 'typebox';
import { AppError } from '../../shared/errors.ts';
import type { AppContext } from '../../context.ts';
import type { DiscMapRenderer } from '../../pages/disc-map-renderer.ts';
import { discMapKey, parseDiscMapKey, renderDiscMapSvg } from '../../pages/disc-map.ts';
import { fileResponse } from '../common/doc-responses.ts';

/**
 * The map of a point as SVG or PNG. PNGs are rasterised off the event loop and cached
 * (src/pages/disc-map-renderer.ts), keyed by the point, never by whose it is.
 */
export async function sendDiscMap(reply: FastifyReply, discMaps: DiscMapRenderer, point: DiscPoint, format: 'svg' | 'png', cacheControl: string): Promise<FastifyReply> {
  // Drawn at the point the URL key names (three decimals), so both routes draw one point alike.
  const key = discMapKey(point);
  const svg = renderDiscMapSvg(parseDiscMapKey(key) ?? point);
  reply.header('cache-control', cacheControl);
  if (format === 'png') return reply.type('image/png').send(await discMaps.png(key, svg));
  return reply.type('image/svg+xml; charset=utf-8').send(svg);
}

const schema = {
  summary: "DISC map for a point: the circle, the 16 sectors and the person's dot (SVG, or PNG with .png)",
  tags: ['Images'],
  params: Type.Object({ file: Type.String({ pattern: '^[-0-9._]+\\.(svg|png)$', description: '{x}_{y}.svg or {x}_{y}.png' }) }),
  response: { 200: fileResponse('The DISC map, SVG or PNG as the file name asks', ['image/svg+xml', 'image/png']) },
};

/**
 * Public and stateless: the URL names the point, so the image can be cached for ever. Analyses
 * link here (their result belongs to no stored person); profiles link to the person's own map
 * (person-disc-map.ts), which goes away with the person.
 */
export const discMapRoute: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/images/disc-map/:file', { schema }, async (request, reply) => {
    const match = /^(.*)\.(svg|png)$/.exec(request.params.file);
    const point = match?.[1] ? parseDiscMapKey(match[1]) : null;
    if (!match || !point) throw new AppError('not_found', 'No DISC map at this address: expected /images/disc-map/{x}_{y}.svg.');
    return sendDiscMap(reply, ctx.discMaps, point, match[2] === 'png' ? 'png' : 'svg', 'public, max-age=31536000, immutable');
  });
};
