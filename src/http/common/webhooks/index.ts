import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../../context.ts';
import { createWebhookRoute } from './create.ts';
import { webhookDeliveriesRoute } from './deliveries.ts';
import { enableWebhookRoute } from './enable.ts';
import type { WebhookGroup } from './group.ts';
import { listWebhooksRoute } from './list.ts';
import { removeWebhookRoute } from './remove.ts';
import { rotateWebhookSecretRoute } from './rotate.ts';
import { testWebhookRoute } from './test-event.ts';

export type { WebhookGroup } from './group.ts';

/** A group's webhook routes; registered inside the group's plugin, so its token hook guards them. */
export function webhookRoutes(group: WebhookGroup): FastifyPluginAsyncTypebox<{ ctx: AppContext }> {
  return async (app, { ctx }) => {
    for (const route of [listWebhooksRoute, createWebhookRoute, removeWebhookRoute, rotateWebhookSecretRoute, enableWebhookRoute, testWebhookRoute, webhookDeliveriesRoute]) {
      await app.register(route(group), { ctx });
    }
  };
}
