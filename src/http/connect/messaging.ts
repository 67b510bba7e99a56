import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { completedProfile } from '../../connect/profile-search.ts';
import { MESSAGE_MAX_CHARS, recommendMessage } from '../../content/connect/messaging.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../shared/errors.ts';
import { tokenOf } from '../common/auth.ts';
import { acceptsBody, textBodyBytes } from '../common/body-caps.ts';
import { readGetJsonBody } from './get-body.ts';
import { partyOf } from './schemas.ts';
import { errorResponses, TOKEN_ERRORS } from '../common/error-responses.ts';

const MessageC4 = Type.Object({
  start: Type.Integer({ description: 'Start index in the submitted text, in UTF-16 code units (JavaScript string indices)' }),
  end: Type.Integer({ description: 'End index (exclusive): text.slice(start, end) is the passage' }),
  recommendation: Type.String({ description: 'May contain <span class="…"> markers' }),
});

const getSchema = {
  summary: 'Recommendations on a message draft, for this sender writing to this recipient (request ids of completed searches)',
  operationId: 'getMessageRecommendations',
  description: `The draft is JSON {"text": "…"} in the body (GET or POST), or ?text= on GET. Up to ${MESSAGE_MAX_CHARS} characters (413 above).`,
  tags: ['Messaging'],
  security: [{ orgToken: [] }],
  params: Type.Object({
    sender: Type.String({ maxLength: 200, description: "The request_id of the writer's completed profile search" }),
    recipient: Type.String({ maxLength: 200, description: "The request_id of the reader's completed profile search" }),
  }),
  querystring: Type.Object({ text: Type.Optional(Type.String({ description: 'The draft, when not sent as a JSON body {"text": …} (the body wins)' })) }),
  response: {
    200: Type.Array(MessageC4, { description: 'C4: recommendations on passages of the draft, in the order they appear' }),
    ...errorResponses([...TOKEN_ERRORS, 'bad_request', 'not_found', 'payload_too_large']),
  },
};

/** `{"text": "…"}` of up to 20,000 characters. */
const MESSAGE_BODY = { bytes: textBodyBytes(MESSAGE_MAX_CHARS), fields: 8, depth: 2 };

/** Fastify refuses a body schema on GET, so only the POST operation declares it. */
const postSchema = { ...getSchema, operationId: 'postMessageRecommendations', body: Type.Object({ text: Type.String({ description: 'The draft message' }) }) };

function textOf(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body !== 'object' || !('text' in body)) throw new AppError('bad_request', 'Send the draft as JSON: {"text": "…"}.');
  if (typeof body.text !== 'string') throw new AppError('bad_request', '"text" must be a string.');
  return body.text;
}

/** GET (as the contract names it) and POST (as its sample call sends it), the text in a JSON body on both. */
export const messagingRoute: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const messageBody = acceptsBody(MESSAGE_BODY, ctx.config.bodyLimitBytes);
  const answer = async (tokenId: string, params: { sender: string; recipient: string }, text: string | undefined) => {
    if (text === undefined || text.trim() === '') throw new AppError('bad_request', 'The message "text" is empty: send the draft as JSON {"text": "…"}.');
    if (text.length > MESSAGE_MAX_CHARS) throw new AppError('payload_too_large', `The message has ${text.length} characters; the limit is ${MESSAGE_MAX_CHARS}.`);
    const sender = await completedProfile(ctx.db, tokenId, params.sender);
    const recipient = await completedProfile(ctx.db, tokenId, params.recipient);
    return recommendMessage(text, partyOf(sender), partyOf(recipient), ctx.content.messaging);
  };
  app.get('/v1/messaging/:sender/:recipient', { schema: getSchema, ...messageBody }, async (request) => {
    const text = textOf(await readGetJsonBody(request, messageBody.config.bodyCaps)) ?? request.query.text;
    return answer(tokenOf(request).id, request.params, text);
  });
  app.post('/v1/messaging/:sender/:recipient', { schema: postSchema, ...messageBody }, async (request) =>
    answer(tokenOf(request).id, request.params, textOf(request.body) ?? request.query.text),
  );
};
