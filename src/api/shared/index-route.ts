import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';

const schema = {
  summary: 'Where to start: links to the API reference and the health check',
  operationId: 'getServiceIndex',
  tags: ['Operations'],
  response: {
    200: Type.Object(
      { service: Type.String(), api: Type.String(), docs: Type.String(), openapi: Type.String(), health: Type.String() },
      { description: 'Links to the browsable docs, the OpenAPI document and the health check' },
    ),
  },
};

/** `GET /` on a host, for a person who opens the bare address in a browser or with curl. */
export function indexRoute(api: string): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/', { schema }, async () => ({ service: 'Rapport', api, docs: '/docs', openapi: '/openapi.json', health: '/healthz' }));
  };
}
