import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readSearch } from '../../connect/criteria.ts';
import { searchAsync } from '../../connect/profile-search.ts';
import type { AppContext } from '../../context.ts';
import { tokenOf } from '../common/auth.ts';
import { acceptsBody } from '../common/body-caps.ts';
import { connectDeps } from './deps.ts';
import { Accepted, SEARCH_BODY, SearchBody, searchFields } from './schemas.ts';
import { errorResponses, TOKEN_ERRORS } from '../common/error-responses.ts';

const schema = {
  summary: 'Start a profile search: 202 {request_id} at once; poll GET /v1/profiles/results/{request_id}, or be told by webhook (connect.search.finished)',
  operationId: 'startProfileSearch',
  tags: ['Profiles'],
  security: [{ orgToken: [] }],
  body: SearchBody,
  response: { 202: Accepted, ...errorResponses([...TOKEN_ERRORS, 'bad_request', 'payload_too_large', 'unsupported_media_type']) },
};

export const profilesAsyncRoute: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post('/v1/profiles/async', { schema, ...acceptsBody(SEARCH_BODY, ctx.config.bodyLimitBytes) }, async (request, reply) => {
    const input = readSearch(searchFields(request.body), 'async');
    const id = await searchAsync(connectDeps(ctx), tokenOf(request).id, input);
    return reply.status(202).send({ request_id: id });
  });
};
