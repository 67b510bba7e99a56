import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readFileSync } from 'node:fs';
import { Type } from 'typebox';
import { AppError } from '../../shared/errors.ts';
import { fileResponse } from '../common/doc-responses.ts';

const TYPES = { 'test.js': 'text/javascript; charset=utf-8', 'result.js': 'text/javascript; charset=utf-8', 'copy.js': 'text/javascript; charset=utf-8', 'favicon.svg': 'image/svg+xml' } as const;

/** The pages' few scripts and their icon, served from this service (it may run offline; nothing from another host). */
export const assetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const files = new Map(Object.entries(TYPES).map(([name, type]) => [name, { type, body: readFileSync(new URL(`../../pages/assets/${name}`, import.meta.url)) }]));
  app.get(
    '/assets/:file',
    {
      schema: {
        summary: "The pages' scripts and icon",
        tags: ['Pages'],
        params: Type.Object({ file: Type.String({ maxLength: 40, description: 'A file of the pages (stylesheet, script, font, icon)' }) }),
        response: { 200: fileResponse('The file: a script, or the icon', ['text/javascript', 'image/svg+xml']) },
      },
    },
    async (request, reply) => {
      const file = files.get(request.params.file);
      if (!file) throw new AppError('not_found', 'No such asset.');
      return reply.type(file.type).header('cache-control', 'public, max-age=300').send(file.body);
    },
  );
  // Browsers ask for /favicon.ico where a page names no icon, or on their own: the same icon.
  // A temporary redirect: a permanent one would be cached for good.
  app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/assets/favicon.svg', 302));
};
