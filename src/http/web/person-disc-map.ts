import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { personalityView } from '../../personality/views.ts';
import { personForPage } from '../../people/lookup-person.ts';
import { AppError } from '../../shared/errors.ts';
import { fileResponse } from '../common/doc-responses.ts';
import { sendDiscMap } from './disc-map.ts';

const schema = {
  summary: "A stored person's DISC map (SVG, or PNG with .png), the `images.disc_map` of a profile",
  tags: ['Images'],
  params: Type.Object({ file: Type.String({ pattern: '^[\\w-]{1,64}\\.(svg|png)$', description: '{public_id}.svg or {public_id}.png' }) }),
  response: { 200: fileResponse("The person's DISC map, SVG or PNG as the file name asks", ['image/svg+xml', 'image/png']) },
};

/**
 * Keyed by the person's page id, like the profile page: once the person is deleted (or has no
 * personality any more) it answers 404, so a shared link dies with the data. Cached briefly
 * and privately, as the page is, for the same reason.
 */
export const personDiscMapRoute: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/images/disc-map/p/:file', { schema }, async (request, reply) => {
    const match = /^(.*)\.(svg|png)$/.exec(request.params.file);
    const person = match?.[1] ? await personForPage(ctx.people, match[1]) : null;
    if (!person?.estimate) throw new AppError('not_found', 'No DISC map at this address: the person is not stored, or has no personality.');
    return sendDiscMap(reply, ctx.discMaps, personalityView(person.estimate).point, match?.[2] === 'png' ? 'png' : 'svg', 'private, max-age=300');
  });
};
