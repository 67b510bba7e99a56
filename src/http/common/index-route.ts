import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { APP_PAGE_CSP } from '../../pages/app-shell.ts';
import { htmlPage } from './doc-responses.ts';
import { prefersHtml } from './html-errors.ts';

const Links = Type.Object(
  { service: Type.String(), api: Type.String(), docs: Type.String(), openapi: Type.String(), health: Type.String() },
  { description: 'Links to the browsable docs, the OpenAPI document and the health check' },
);

const schema = {
  summary: 'Where to start: the start page for a browser, links to the API reference and the health check for a client',
  operationId: 'getServiceIndex',
  tags: ['Operations'],
  response: {
    200: {
      description: 'JSON links for a client; the start page (HTML) for a browser, which asks for text/html',
      content: { 'application/json': { schema: Links }, 'text/html': htmlPage('The start page').content['text/html'] },
    },
  },
};

/**
 * `GET /` on a host, for a person who opens the bare address in a browser (the start page,
 * `page`) or a client that asks with curl or fetch (JSON links, as before).
 */
export function indexRoute(api: string, page?: (request: FastifyRequest) => string): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/', { schema }, async (request, reply) => {
      reply.header('vary', 'Accept');
      if (page && prefersHtml(request)) {
        return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('content-security-policy', APP_PAGE_CSP).send(page(request));
      }
      return reply.type('application/json; charset=utf-8').send({ service: 'Rapport', api, docs: '/docs', openapi: '/openapi.json', health: '/healthz' });
    });
  };
}
