import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../shared/errors.ts';
import type { AppContext } from '../../context.ts';
import { parseDiscMapKey, renderDiscMapSvg } from '../../web/disc-map.ts';

const schema = {
  summary: "DISC map for a point: the circle, the 16 sectors and the person's dot (SVG, or PNG with .png)",
  tags: ['Images'],
  params: Type.Object({ file: Type.String({ pattern: '^[-0-9._]+\\.(svg|png)$', description: '{x}_{y}.svg or {x}_{y}.png' }) }),
};

/** Public and stateless: the URL names the point, so the image can be cached for ever. */
export const discMapRoute: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/images/disc-map/:file', { schema }, async (request, reply) => {
    const match = /^(.*)\.(svg|png)$/.exec(request.params.file);
    const point = match?.[1] ? parseDiscMapKey(match[1]) : null;
    if (!match || !point) throw new AppError('not_found', 'No DISC map at this address: expected /images/disc-map/{x}_{y}.svg.');
    const svg = renderDiscMapSvg(point);
    reply.header('cache-control', 'public, max-age=31536000, immutable');
    // Rasterised off the event loop and cached (src/web/disc-map-renderer.ts).
    if (match[2] === 'png') return reply.type('image/png').send(await ctx.discMaps.png(match[1] ?? '', svg));
    return reply.type('image/svg+xml; charset=utf-8').send(svg);
  });
};
