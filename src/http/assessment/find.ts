import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { findTakerForUser, tokenUser } from '../../takers/queries.ts';
import { tokenOf } from '../common/auth.ts';
import { FlatContent, flatContent } from '../common/personality-schemas.ts';
import { readFindQuery } from './find-query.ts';
import { errorResponses, TOKEN_ERRORS } from '../common/error-responses.ts';

/** B1, field for field as the contract lists it: top-level fields, `enneagram_type` a number. */
const AssessmentB1 = Type.Object(
  {
    first_name: Type.String(),
    last_name: Type.String(),
    photo_url: Type.Union([Type.String(), Type.Null()]),
    personalities: Type.Object({
      disc_type: Type.String(),
      enneagram_type: Type.Integer({ minimum: 1, maximum: 9 }),
      myers_briggs_type: Type.String(),
    }),
    content: FlatContent,
    hiring: Type.Optional(
      Type.Array(Type.Object({ url: Type.String({ format: 'uri' }), role: Type.String() }), {
        description: 'Present with options[hiring]=true when the person took the test through one of your hiring links',
      }),
    ),
  },
  { description: "B1: the person's assessment profile" },
);

const schema = {
  summary: 'Look up a person who took the personality test through your links, by email',
  operationId: 'findAssessment',
  tags: ['Assessment'],
  security: [{ queryToken: [] }],
  querystring: Type.Object({
    token: Type.String({ description: 'API token from the dashboard (group B)' }),
    email: Type.String({ maxLength: 320, description: 'The email the person took the test with' }),
    'options[hiring]': Type.Optional(
      Type.Boolean({ description: 'true (or 1): add the hiring entries (role, job posting URL) where there are any; false (or 0), the default: leave them out' }),
    ),
  }),
  response: { 200: AssessmentB1, ...errorResponses([...TOKEN_ERRORS, 'bad_request', 'not_found'], { not_found: 'not_found: nobody took the test through your links with this email' }) },
};

/**
 * GET /v1/personality_assessments/find. A user sees only people who took the test through
 * their own button or hiring links; anyone else is a 404 exactly like an unknown email.
 */
export const assessmentFindRoute: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/v1/personality_assessments/find', { schema, preValidation: readFindQuery }, async (request) => {
    const email = request.query.email.trim();
    const userId = await tokenUser(ctx.db, tokenOf(request).id);
    const taker = await findTakerForUser(ctx.db, userId, email);
    const { view, content } = ctx.descriptions.describe(taker.estimate, taker.firstName);
    const withHiring = request.query['options[hiring]'] === true && taker.hiring.length > 0;
    return {
      first_name: taker.firstName ?? '',
      last_name: taker.lastName ?? '',
      photo_url: taker.photoUrl,
      personalities: { disc_type: view.discType, enneagram_type: view.enneagramType, myers_briggs_type: view.myersBriggsType },
      content: flatContent(content),
      ...(withHiring ? { hiring: taker.hiring } : {}),
    };
  });
};
