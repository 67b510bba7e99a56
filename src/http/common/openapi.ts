import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import { packageVersion } from '../../shared/version.ts';

/**
 * Every route answers errors with the one error body (errors.ts); the route schemas only name
 * their successes, so the document adds the error ranges to each operation.
 */
const ERROR_RESPONSES = {
  '4XX': {
    description:
      'The request was refused; error.code says why: bad_request (400), unauthorized (401), not_found (404), ' +
      'method_not_allowed (405, with Allow), request_timeout (408), payload_too_large (413), unsupported_media_type (415), rate_limited or ' +
      'quota_exceeded (429, with Retry-After), headers_too_large (431).',
    $ref: 'ErrorBody#',
  },
  '5XX': { description: 'internal (500) or unavailable (503); the request id identifies it in the service log.', $ref: 'ErrorBody#' },
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The request body as the document should show it, for a route that reads its body itself
     * (an upload streamed from the request): described only, never used to validate.
     */
    openapiBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  }
}

/**
 * swagger-ui's own policy, mended for a self-hosted service: without `upgrade-insecure-requests`,
 * which turned every asset of /docs into an https request when the service is reached over plain
 * HTTP by address or name (only localhost is exempt), leaving a blank page; and with inline
 * styles, which swagger-ui sets on its elements (scripts stay restricted to its own files).
 */
function docsCsp(header: string): string {
  return header
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive !== '' && directive !== 'upgrade-insecure-requests')
    .map((directive) => (directive.startsWith('style-src ') && !directive.includes("'unsafe-inline'") ? `${directive} 'unsafe-inline'` : directive))
    .join('; ');
}

const theme = (file: string) => readFileSync(new URL(`../../pages/assets/${file}`, import.meta.url));

/**
 * /docs as Rapport's page: its title, icon and header (a script of this origin, as the policy
 * asks), and a style sheet that keeps swagger-ui's badges readable (its white on green was
 * 2.0:1) and its operations usable at 390 px. No top bar: it only offered to load another
 * document by URL.
 */
function docsTheme(title: string) {
  const logo = theme('favicon.svg');
  return {
    title: `${title} · docs`,
    css: [{ filename: 'rapport-docs.css', content: theme('docs.css').toString('utf8') }],
    js: [{ filename: 'rapport-docs.js', content: theme('docs.js').toString('utf8') }],
    favicon: [
      { filename: 'rapport-logo.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: logo },
    ],
  };
}

/**
 * An operation id for a route that names none (the web pages): the method and the path's words,
 * `{param}` as `By<Param>` (POST /dashboard/webhooks/{id}/rotate: postDashboardWebhooksByIdRotate).
 * Stable while the path is, so a generated client's names do not move; API routes name their own.
 */
export function derivedOperationId(method: string, url: string): string {
  const words = url
    .split('/')
    .filter((part) => part !== '')
    .map((part) => part.replace(/^:(.*)$/, 'by-$1').replace(/^\{(.*)\}$/, 'by-$1'))
    .flatMap((part) => part.split(/[^A-Za-z0-9]+/))
    .filter((word) => word !== '');
  const capitalised = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
  return `${method.toLowerCase()}${capitalised === '' ? 'Root' : capitalised}`;
}

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
      info: { title: options.title, description: options.description, version: packageVersion() },
      components: { securitySchemes: options.securitySchemes },
    },
    transform: ({ schema, url, route }) => {
      if (!schema || schema.hide) return { schema, url };
      const body = route.config?.openapiBody;
      // A route of several methods gets one id for all: give each its own registration (emails.ts).
      const method = Array.isArray(route.method) ? String(route.method[0]) : route.method;
      return {
        schema: {
          ...schema,
          operationId: schema.operationId ?? derivedOperationId(method, url),
          ...(body ? { body } : {}),
          response: { ...(typeof schema.response === 'object' ? schema.response : {}), ...ERROR_RESPONSES },
        },
        url,
      };
    },
    refResolver: {
      // Shared schemas keep their $id as the component name.
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true, transformStaticCSP: docsCsp, uiConfig: { layout: 'BaseLayout' }, theme: docsTheme(options.title) });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
