import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { completedProfile } from '../../connect/profile-search.ts';
import { composeRelationship, RELATIONSHIP_KEYS } from '../../content/connect/relationship.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../shared/errors.ts';
import { tokenOf } from '../common/auth.ts';
import { partyOf } from './schemas.ts';
import { errorResponses, TOKEN_ERRORS } from '../common/error-responses.ts';

const Phrases = Type.Object({ phrases: Type.Array(Type.String({ description: 'May contain <br> tags' })) });
const RelationshipC3 = Type.Object(
  { overview: Type.String({ description: 'May contain inline HTML' }), ...Object.fromEntries(RELATIONSHIP_KEYS.map((k) => [k, Phrases])) },
  { description: 'C3: how the two people work together, by topic' },
);

const schema = {
  summary: 'Advice on the relationship between two profiles (request ids of two completed searches of this organization)',
  tags: ['Relationships'],
  security: [{ orgToken: [] }],
  params: Type.Object({
    profile_one: Type.String({ maxLength: 200, description: 'The request_id of a completed profile search' }),
    profile_two: Type.String({ maxLength: 200, description: 'The request_id of another completed profile search' }),
  }),
  response: { 200: RelationshipC3, ...errorResponses([...TOKEN_ERRORS, 'bad_request', 'not_found'], { bad_request: 'bad_request: both request ids found the same person' }) },
};

/** The contract gives POST in one place and GET in another: both answer. */
export const relationshipsRoute: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  // One registration per method, so each has its own operation id in the OpenAPI document.
  for (const [method, operationId] of [['GET', 'getRelationshipAdvice'], ['POST', 'postRelationshipAdvice']] as const) app.route({
    method,
    url: '/v1/relationships/:profile_one/:profile_two',
    schema: { ...schema, operationId },
    handler: async (request) => {
      const tokenId = tokenOf(request).id;
      const one = await completedProfile(ctx.db, tokenId, request.params.profile_one);
      const two = await completedProfile(ctx.db, tokenId, request.params.profile_two);
      // Advice on how someone gets on with themselves ("the first Marisol and the second
      // Marisol share…") helps nobody; two searches that found the same person say so.
      if (request.params.profile_one === request.params.profile_two || (one.personId !== null && one.personId === two.personId)) {
        throw new AppError('bad_request', 'Both request ids are searches that found the same person; a relationship needs two different people.');
      }
      return composeRelationship(partyOf(one), partyOf(two), ctx.content.relationship);
    },
  });
};
