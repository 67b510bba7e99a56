import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type Config } from '../src/config.ts';
import { createContext } from '../src/context.ts';
import { createLogger } from '../src/shared/logger.ts';
import { useTestDb } from './helpers/db.ts';

/**
 * The service and the job worker load the text model and the content at start, so a broken file
 * stops them there; a CLI command in its own process loads them only if its verb reads them.
 */
describe('what the context loads at start', () => {
  const testDb = useTestDb();
  let dir: string;
  let brokenModel: Config;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rapport-context-'));
    const notJson = path.join(dir, 'notes.txt');
    writeFileSync(notJson, 'hello');
    brokenModel = loadConfig({ RAPPORT_TEXT_MODEL: notJson, LOG_LEVEL: 'silent' }, dir);
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('stops the service and the job worker at start on a model file that cannot be loaded', () => {
    const logger = createLogger('silent');
    expect(() => createContext(brokenModel, testDb.db, logger)).toThrow(/^Invalid configuration: RAPPORT_TEXT_MODEL .*notes\.txt could not be loaded: it is not JSON$/);
    expect(() => createContext(brokenModel, testDb.db, logger, { runJobs: true, loadOnFirstUse: true })).toThrow(ConfigError);
  });

  it('lets a command that never reads the model run, and fails the one that does with the same line', async () => {
    const ctx = createContext(brokenModel, testDb.db, createLogger('silent'), { runJobs: false, loadOnFirstUse: true });
    try {
      expect(ctx.db).toBe(testDb.db);
      expect(() => ctx.model).toThrow(/^Invalid configuration: RAPPORT_TEXT_MODEL .*notes\.txt could not be loaded: it is not JSON$/);
      expect(() => ctx.textPool).toThrow(ConfigError);
    } finally {
      await ctx.shutdown();
    }
  });

  it('loads the model, the content and the text pool once, on first use', async () => {
    const ctx = createContext(loadConfig({ LOG_LEVEL: 'silent' }), testDb.db, createLogger('silent'), { runJobs: false, loadOnFirstUse: true });
    try {
      const { model, content, textPool } = ctx;
      expect(model.version).toMatch(/\S/);
      expect(content.phrases).toBeDefined();
      expect(ctx.model).toBe(model);
      expect(ctx.content).toBe(content);
      expect(ctx.textPool).toBe(textPool);
      expect(textPool.options.model).toBe(model);
    } finally {
      await ctx.shutdown();
    }
  });
});
