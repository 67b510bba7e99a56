import { Type } from 'typebox';
import { queryOne } from '../db/client.ts';
import { normalizeEmail } from '../people/normalize.ts';
import { AppError } from '../shared/errors.ts';
import type { AppContext } from '../context.ts';
import { createEndpoint, enableEndpoint, listDeliveries, listEndpoints, queueTestEvent, removeEndpoint, rotateSecret, type Endpoint, type Scope } from '../webhooks/endpoints.ts';
import type { WebhookOwner } from '../webhooks/events.ts';
import { deliveryJson, endpointJson } from '../webhooks/views.ts';
import { defineVerb } from './verb.ts';

/** The endpoint as the operator sees it: the owner's view, and whose it is. */
export function endpointView(endpoint: Endpoint) {
  const { id, ...rest } = endpointJson(endpoint);
  return { id, owner_token_id: endpoint.ownerTokenId, owner_user_id: endpoint.ownerUserId, ...rest };
}
export type EndpointView = ReturnType<typeof endpointView>;

export const deliveryView = deliveryJson;
export type DeliveryListView = ReturnType<typeof deliveryView>;

/** Who the operator names: a token (by id), or a registered user (by id or email). */
const OwnerArgs = { token_id: Type.Optional(Type.String({ minLength: 1 })), user: Type.Optional(Type.String({ minLength: 1 })) };

/**
 * The owner a token or user stands for. A connect or enterprise token owns its endpoints; an
 * assessment token made on a dashboard stands for its user, whose endpoints the dashboard shows.
 */
async function ownerOf(ctx: AppContext, args: { token_id?: string | undefined; user?: string | undefined }): Promise<WebhookOwner> {
  if ((args.token_id === undefined) === (args.user === undefined)) throw new AppError('bad_request', 'Name the owner by exactly one of --token (a token id) or --user (a user id or email).');
  if (args.token_id !== undefined) {
    const token = await queryOne<{ kind: string; user_id: string | null; revoked_at: Date | null }>(ctx.db, 'SELECT kind, user_id, revoked_at FROM api_tokens WHERE id = $1', [args.token_id]);
    if (!token) throw new AppError('not_found', `No token ${args.token_id}; \`rapport tokens list\` shows their ids.`);
    if (token.revoked_at !== null) throw new AppError('bad_request', `Token ${args.token_id} is revoked.`);
    if (token.kind === 'connect' || token.kind === 'enterprise') return { kind: token.kind, tokenId: args.token_id };
    if (token.user_id !== null) return { kind: 'user', userId: token.user_id };
    throw new AppError('bad_request', `Token ${args.token_id} is an assessment token of nobody's: webhooks for tests belong to the user whose links they were taken through (--user).`);
  }
  const user = await queryOne<{ id: string }>(ctx.db, 'SELECT id FROM users WHERE id = $1 OR email_normalized = $2', [args.user?.trim(), normalizeEmail(args.user ?? '')]);
  if (!user) throw new AppError('not_found', `No user ${args.user}.`);
  return { kind: 'user', userId: user.id };
}

async function scopeOf(ctx: AppContext, args: { token_id?: string | undefined; user?: string | undefined }): Promise<Scope> {
  return args.token_id === undefined && args.user === undefined ? 'operator' : ownerOf(ctx, args);
}

const Id = Type.Object({ id: Type.String({ minLength: 1 }) });

export const webhookVerbs = {
  'webhooks.add': defineVerb(
    Type.Object({ ...OwnerArgs, url: Type.String({ minLength: 1 }), events: Type.Optional(Type.Array(Type.String())), description: Type.Optional(Type.String()) }),
    async (ctx, args) => {
      const { endpoint, secret } = await createEndpoint(ctx.db, ctx.webhookAddresses, await ownerOf(ctx, args), {
        url: args.url,
        ...(args.events ? { events: args.events } : {}),
        ...(args.description !== undefined ? { description: args.description } : {}),
      });
      return { ...endpointView(endpoint), secret };
    },
  ),
  'webhooks.list': defineVerb(Type.Object(OwnerArgs), async (ctx, args) => (await listEndpoints(ctx.db, await scopeOf(ctx, args))).map(endpointView)),
  'webhooks.remove': defineVerb(Id, async (ctx, args) => {
    await removeEndpoint(ctx.db, 'operator', args.id);
    return { id: args.id, removed: true };
  }),
  'webhooks.rotate': defineVerb(Id, async (ctx, args) => {
    const { endpoint, secret } = await rotateSecret(ctx.db, 'operator', args.id);
    return { ...endpointView(endpoint), secret };
  }),
  'webhooks.enable': defineVerb(Id, async (ctx, args) => endpointView(await enableEndpoint(ctx.db, 'operator', args.id))),
  'webhooks.test': defineVerb(Id, async (ctx, args) => {
    const deliveryId = await queueTestEvent(ctx.db, 'operator', args.id);
    ctx.wakeWorker();
    return { delivery_id: deliveryId, sent_by: ctx.worker ? 'this process' : 'the service or a worker, once one runs' };
  }),
  'webhooks.deliveries': defineVerb(Type.Object({ id: Type.String({ minLength: 1 }), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })) }), async (ctx, args) =>
    (await listDeliveries(ctx.db, 'operator', args.id, args.limit ?? 50)).map(deliveryView),
  ),
};
