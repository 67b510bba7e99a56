import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requestResult } from '../../connect/profile-search.ts';
import type { AppContext } from '../../context.ts';
import { tokenOf } from '../common/auth.ts';
import { ProfileInfo, Recommendations, RequestIdParams, toC2 } from './schemas.ts';
import { errorResponses, TOKEN_ERRORS } from '../common/error-responses.ts';

const Processing = Type.Object(
  { status: Type.Literal('processing'), request_id: Type.String() },
  { description: 'Not finished yet: ask again shortly (Retry-After says when)' },
);
const Complete = Type.Object({ status: Type.Literal('complete'), info: ProfileInfo, recommendations: Recommendations, request_id: Type.String() });
const Failed = Type.Object(
  { status: Type.Literal('error'), request_id: Type.String(), info: Type.Object({ error: Type.String() }) },
  { description: 'The search failed; info.error says why. Start a new search.' },
);

const schema = {
  summary: 'Result of a profile search: processing, complete (C2) or error; 404 when nobody was found or the id is unknown',
  operationId: 'getProfileSearchResult',
  tags: ['Profiles'],
  security: [{ orgToken: [] }],
  params: RequestIdParams,
  response: {
    200: Type.Union([Complete, Processing, Failed], { description: 'The search as it stands: status processing, complete (C2 with status) or error' }),
    ...errorResponses([...TOKEN_ERRORS, 'not_found'], { not_found: 'not_found: the search found nobody, or no search of this organization has this id' }),
  },
};

export const profilesResultsRoute: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/v1/profiles/results/:request_id', { schema }, async (request, reply) => {
    const result = await requestResult(ctx.db, tokenOf(request).id, request.params.request_id);
    if (result.profile) return { status: 'complete' as const, ...toC2(request, ctx.config.publicConnectUrl, result.id, result.profile, ctx.recommendations) };
    if (result.status === 'error') return { status: 'error' as const, request_id: result.id, info: { error: result.error ?? 'The search failed.' } };
    reply.header('retry-after', '1');
    return { status: 'processing' as const, request_id: result.id };
  });
};
