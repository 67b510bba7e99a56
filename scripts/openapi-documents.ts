import type { FastifyInstance } from 'fastify';
import { buildBaseApp, buildConnectApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createContext } from '../src/context.ts';
import { openEmbedded } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { createLogger } from '../src/shared/logger.ts';

export interface OpenApiDocuments {
  /** {base_url}: groups A (Enterprise) and B (Assessment). */
  base: Record<string, unknown>;
  /** {connect_url}: group C (Connect). */
  connect: Record<string, unknown>;
}

export async function documentOf(app: FastifyInstance): Promise<Record<string, unknown>> {
  const response = await app.inject({ url: '/openapi.json' });
  if (response.statusCode !== 200) throw new Error(`GET /openapi.json answered ${response.statusCode}`);
  return response.json<Record<string, unknown>>();
}

/**
 * The two OpenAPI documents as the service serves them, from the service's own apps on an
 * in-memory embedded database (nothing listens). The client's types are generated from these
 * (scripts/client-types.ts), and test/client/generated-types.test.ts checks they are current.
 */
export async function openApiDocuments(): Promise<OpenApiDocuments> {
  const db = await openEmbedded();
  await migrate(db);
  const config = loadConfig({ LOG_LEVEL: 'silent', RAPPORT_DEMO_DATA: 'false' });
  const ctx = createContext(config, db, createLogger('silent'));
  const base = await buildBaseApp(ctx);
  const connect = await buildConnectApp(ctx);
  try {
    return { base: await documentOf(base), connect: await documentOf(connect) };
  } finally {
    await base.close();
    await connect.close();
    await ctx.shutdown();
    await db.close();
  }
}
