import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readFileSync } from 'node:fs';
import { Type } from 'typebox';
import { AppError } from '../../shared/errors.ts';

const NAMES = ['test.js', 'result.js', 'dashboard.js'] as const;

/** The pages' few scripts, served from this service (it may run offline; nothing from another host). */
export const assetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const files = new Map<string, Buffer>(NAMES.map((name) => [name, readFileSync(new URL(`../../web/assets/${name}`, import.meta.url))]));
  app.get(
    '/assets/:file',
    { schema: { summary: "The pages' scripts", tags: ['Pages'], params: Type.Object({ file: Type.String({ maxLength: 40 }) }) } },
    async (request, reply) => {
      const body = files.get(request.params.file);
      if (!body) throw new AppError('not_found', 'No such asset.');
      return reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').send(body);
    },
  );
};
