import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../shared/errors.ts';

const schema = {
  summary: 'Liveness and database reachability',
  operationId: 'getHealth',
  tags: ['Operations'],
  response: {
    200: Type.Object(
      { status: Type.Literal('ok'), database: Type.Union([Type.Literal('embedded'), Type.Literal('postgres')]) },
      { description: 'The service is up and its database answers' },
    ),
  },
};

export const healthRoute: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  // A load balancer's first probe of a new process must not wait for a serializer's build.
  app.get('/healthz', { schema, config: { buildSerializerBeforeListening: true } }, async () => {
    try {
      await ctx.db.ping();
    } catch (error) {
      throw new AppError('unavailable', 'The database is not reachable.', { cause: error });
    }
    return { status: 'ok' as const, database: ctx.db.kind };
  });
};
