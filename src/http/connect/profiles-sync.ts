import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readSearch } from '../../connect/criteria.ts';
import { searchSync } from '../../connect/profile-search.ts';
import type { AppContext } from '../../context.ts';
import { tokenOf } from '../common/auth.ts';
import { acceptsBody } from '../common/body-caps.ts';
import { connectDeps } from './deps.ts';
import { Accepted, SEARCH_BODY, ProfileC2, SearchBody, searchFields, toC2 } from './schemas.ts';
import { errorResponses, TOKEN_ERRORS } from '../common/error-responses.ts';

const schema = {
  summary: 'Search a profile and wait for it: 200 C2, 202 {request_id} after RAPPORT_SYNC_TIMEOUT_MS, 404 nobody found',
  operationId: 'searchProfile',
  tags: ['Profiles'],
  security: [{ orgToken: [] }],
  body: SearchBody,
  response: {
    200: ProfileC2,
    202: Accepted,
    ...errorResponses([...TOKEN_ERRORS, 'bad_request', 'not_found', 'payload_too_large', 'unsupported_media_type'], { not_found: 'not_found: nobody was found' }),
  },
};

export const profilesSyncRoute: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post('/v1/profiles', { schema, ...acceptsBody(SEARCH_BODY, ctx.config.bodyLimitBytes) }, async (request, reply) => {
    const input = readSearch(searchFields(request.body), 'sync');
    const { id, outcome } = await searchSync(connectDeps(ctx), tokenOf(request).id, input);
    if (outcome?.status !== 'complete') {
      reply.header('retry-after', '1');
      return reply.status(202).send({ request_id: id });
    }
    return toC2(request, ctx.config.publicConnectUrl, id, outcome.profile, ctx.recommendations);
  });
};
