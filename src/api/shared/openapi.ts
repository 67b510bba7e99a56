import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export interface OpenApiOptions {
  title: string;
  description: string;
  securitySchemes: Record<string, { type: 'http'; scheme: 'bearer' } | { type: 'apiKey'; in: 'query' | 'header'; name: string }>;
}

/**
 * The OpenAPI document is generated from the route schemas: `GET /openapi.json`, and a
 * browsable `/docs` served from the installed swagger-ui assets (no network needed).
 */
export async function installOpenApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: options.title, description: options.description, version: '1.0.0' },
      components: { securitySchemes: options.securitySchemes },
    },
    refResolver: {
      // Shared schemas keep their $id as the component name.
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
