import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DestinationStream } from 'pino';
import type { FastifyInstance } from 'fastify';
import { createToken, type TokenKind, type TokenLimits } from '../../src/access/tokens.ts';
import { buildBaseApp, buildConnectApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { loadContent, type Content } from '../../src/content/load-content.ts';
import { createContext, loadTextModel, type AppContext } from '../../src/context.ts';
import type { TextModel } from '../../src/personality/text/model.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { createTestDb, type TestDb } from './db.ts';
import { useFixture } from './fixture.ts';

export interface TestService {
  ctx: AppContext;
  base: FastifyInstance;
  connect: FastifyInstance;
  testDb: TestDb;
  token(kind: TokenKind, limits?: Partial<TokenLimits>): Promise<{ id: string; secret: string }>;
  close(): Promise<void>;
}

/** Outlives a module evaluated again for a later file in the same worker. */
const READ_ONLY = Symbol.for('rapport.test-service.read-only');
type WithReadOnly = typeof globalThis & { [READ_ONLY]?: { content?: Content; model?: TextModel } };
const readOnly = ((globalThis as WithReadOnly)[READ_ONLY] ??= {});

/**
 * The content and the shipped text model, read and checked once per worker and given to every
 * test service's context: ~0.45 s of CPU a service otherwise (the content's phrase index is
 * built for each content object, src/content/compose-profile.ts). Both are read-only data, as in
 * the service, which keeps them for its life; what a context caches for its requests (text
 * results, descriptions, tokens, sessions) is new in each. A test that names another model
 * (RAPPORT_TEXT_MODEL) gets it read from its file.
 */
function sharedReadOnly(config: Config): { content: Content; model?: TextModel } {
  readOnly.content ??= loadContent();
  if (config.textModelPath !== null) return { content: readOnly.content };
  readOnly.model ??= loadTextModel(config);
  return { content: readOnly.content, model: readOnly.model };
}

/**
 * Both hosts built on a fresh database, not listening: requests go through `inject`. Log lines
 * go to `options.logs` when given (with LOG_LEVEL set in `env`); `warmSerializers` for a test
 * that listens and measures latency, as the service does (src/http/common/serializer-warm-up.ts).
 */
export async function createTestService(
  env: Record<string, string> = {},
  options: { logs?: DestinationStream; warmSerializers?: boolean } = {},
): Promise<TestService> {
  const testDb = await createTestDb();
  // Uploads go to a directory of this test's own, not the repository's data folder.
  const uploadDir = mkdtempSync(path.join(tmpdir(), 'rapport-uploads-'));
  const config: Config = { ...loadConfig({ LOG_LEVEL: 'silent', RAPPORT_DEMO_DATA: 'false', RAPPORT_UPLOAD_DIR: uploadDir, ...env }), databaseUrl: testDb.url };
  const ctx = createContext(config, testDb.db, createLogger(config.logLevel, options.logs), { runJobs: config.inProcessWorker, ...sharedReadOnly(config) });
  const warm = { warmSerializers: options.warmSerializers === true };
  const base = await buildBaseApp(ctx, warm);
  const connect = await buildConnectApp(ctx, warm);
  return {
    ctx,
    base,
    connect,
    testDb,
    async token(kind, limits) {
      const created = await createToken(ctx.db, { kind, name: `test ${kind}`, ...(limits ? { limits } : {}) });
      return { id: created.token.id, secret: created.secret };
    },
    async close() {
      await base.close();
      await connect.close();
      await ctx.shutdown();
      await testDb.close();
      rmSync(uploadDir, { recursive: true, force: true });
    },
  };
}

/** A fresh service and the Authorization header of one enterprise token on it: group A's usual start. */
export async function enterpriseService(): Promise<{ service: TestService; auth: { authorization: string } }> {
  const service = await createTestService();
  return { service, auth: { authorization: `Bearer ${(await service.token('enterprise')).secret}` } };
}

/**
 * The usual fixture, a test service (createTestService) for the tests of the file or describe
 * block this is called in (useFixture: built before the block's own hooks, closed after them).
 * Read it inside tests and hooks: it does not exist yet while the file is collected.
 */
export function useTestService(env: Record<string, string> = {}, options: { logs?: DestinationStream; warmSerializers?: boolean } = {}): TestService {
  const service = useFixture(
    'useTestService(): the service is built in beforeAll; read it inside a test or a hook',
    () => createTestService(env, options),
    (built) => built.close(),
  );
  return {
    get ctx() {
      return service.current().ctx;
    },
    get base() {
      return service.current().base;
    },
    get connect() {
      return service.current().connect;
    },
    get testDb() {
      return service.current().testDb;
    },
    token: (kind, limits) => service.current().token(kind, limits),
    close: () => service.take().close(),
  };
}

/** useTestService with one enterprise token, and the Authorization header that carries it: group A's usual fixture. */
export function useEnterpriseService(): { service: TestService; auth: { readonly authorization: string } } {
  const service = useTestService();
  const authorization = useFixture('useEnterpriseService(): the token is made in beforeAll; read it inside a test or a hook', async () => `Bearer ${(await service.token('enterprise')).secret}`);
  return {
    service,
    auth: {
      get authorization() {
        return authorization.current();
      },
    },
  };
}
