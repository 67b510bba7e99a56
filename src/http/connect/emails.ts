import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { completedProfile } from '../../connect/profile-search.ts';
import { composeSampleEmails, SENDER_NAME_PLACEHOLDER } from '../../content/connect/emails.ts';
import type { AppContext } from '../../context.ts';
import { tokenOf } from '../common/auth.ts';
import { partyOf, RequestIdParams } from './schemas.ts';
import { errorResponses, TOKEN_ERRORS } from '../common/error-responses.ts';

const EmailC5 = Type.Object({
  label: Type.String({ description: 'The situation, e.g. Introduction' }),
  description: Type.String({ description: 'How to write to this person: HTML paragraphs' }),
  text: Type.String({ description: `The email body, lines separated by <br>; the sender's name is the placeholder ${SENDER_NAME_PLACEHOLDER}` }),
});

const schema = {
  summary: 'Sample emails written for a profile (request id of a completed search of this organization)',
  tags: ['Emails'],
  security: [{ orgToken: [] }],
  params: RequestIdParams,
  response: {
    200: Type.Array(EmailC5, { description: 'C5: sample emails written for this person, one per situation' }),
    ...errorResponses([...TOKEN_ERRORS, 'not_found']),
  },
};

/** POST /v1/emails/:id and GET /v1/email/:id as the contract gives them, and GET /v1/emails/:id. */
export const emailsRoute: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const handler = async (request: { params: { request_id: string } } & Parameters<typeof tokenOf>[0]) => {
    const profile = await completedProfile(ctx.db, tokenOf(request).id, request.params.request_id);
    return composeSampleEmails(partyOf(profile), null, ctx.content.emails);
  };
  // One registration per method and path, so each has its own operation id in the OpenAPI document.
  app.route({ method: 'POST', url: '/v1/emails/:request_id', schema: { ...schema, operationId: 'createSampleEmails' }, handler });
  app.route({ method: 'GET', url: '/v1/emails/:request_id', schema: { ...schema, operationId: 'listSampleEmails' }, handler });
  app.route({ method: 'GET', url: '/v1/email/:request_id', schema: { ...schema, operationId: 'getSampleEmails' }, handler });
};
