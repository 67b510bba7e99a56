import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, defaultTextWorkers, loadConfig } from '../src/config.ts';
import { loadTextModel } from '../src/context.ts';
import { DEFAULT_MODEL_PATH } from '../src/personality/text/model.ts';

describe('configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig({}, '/srv/rapport');
    expect(config).toMatchObject({ port: 8080, connectPort: 8081, dataDir: '/srv/rapport/data', databaseUrl: null, publicBaseUrl: null, pdfMaxPending: 50 });
    expect(loadConfig({ RAPPORT_PDF_MAX_PENDING: '200' }).pdfMaxPending).toBe(200);
  });

  it('sizes the text workers from the cores, leaving one to the event loop, and reads the overrides', () => {
    expect([defaultTextWorkers(1), defaultTextWorkers(2), defaultTextWorkers(16)]).toEqual([1, 1, 15]);
    expect(loadConfig({})).toMatchObject({ textWorkers: defaultTextWorkers(), textMaxQueue: 64, textInlineMaxChars: 5000 });
    const set = loadConfig({ RAPPORT_TEXT_WORKERS: '3', RAPPORT_TEXT_MAX_QUEUE: '10', RAPPORT_TEXT_INLINE_CHARS: '1' });
    expect(set).toMatchObject({ textWorkers: 3, textMaxQueue: 10, textInlineMaxChars: 1 });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ CONNECT_PORT: '-1' }, 'CONNECT_PORT'],
    [{ PORT: '9000', CONNECT_PORT: '9000' }, 'CONNECT_PORT'],
    [{ DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL'],
    [{ PUBLIC_BASE_URL: 'ftp://x' }, 'PUBLIC_BASE_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ BODY_LIMIT: 'huge' }, 'BODY_LIMIT'],
    [{ BODY_LIMIT: '0' }, 'BODY_LIMIT'],
    [{ BODY_LIMIT: '1023' }, 'BODY_LIMIT'],
    [{ BODY_LIMIT: '0kb' }, 'BODY_LIMIT'],
    [{ RAPPORT_PDF_MAX_PENDING: '0' }, 'RAPPORT_PDF_MAX_PENDING'],
    [{ RAPPORT_PDF_MAX_PENDING: '2.5' }, 'RAPPORT_PDF_MAX_PENDING'],
    [{ RAPPORT_TEXT_WORKERS: '0' }, 'RAPPORT_TEXT_WORKERS'],
    [{ RAPPORT_TEXT_MAX_QUEUE: 'many' }, 'RAPPORT_TEXT_MAX_QUEUE'],
    [{ RAPPORT_TEXT_INLINE_CHARS: '-5' }, 'RAPPORT_TEXT_INLINE_CHARS'],
  ])('rejects %o naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration: ${variable} `));
  });

  it('parses sizes and trims trailing slashes of public URLs', () => {
    const config = loadConfig({ BODY_LIMIT: '2mb', PUBLIC_BASE_URL: 'https://rapport.example.com/' });
    expect(config.bodyLimitBytes).toBe(2 * 1024 * 1024);
    expect(config.publicBaseUrl).toBe('https://rapport.example.com');
  });

  it('refuses a BODY_LIMIT under 1 KB itself rather than leaving it to the web server', () => {
    expect(() => loadConfig({ BODY_LIMIT: '0' })).toThrow('Invalid configuration: BODY_LIMIT must be at least 1kb, got "0"');
    expect(loadConfig({ BODY_LIMIT: '1kb' }).bodyLimitBytes).toBe(1024);
    expect(loadConfig({ BODY_LIMIT: '1024' }).bodyLimitBytes).toBe(1024);
  });

  describe('RAPPORT_TEXT_MODEL', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rapport-model-config-'));

    it('defaults to the committed model and loads it once into the context', () => {
      const config = loadConfig({}, dir);
      expect(config.textModelPath).toBeNull();
      const model = loadTextModel(config);
      expect(model.version).toMatch(/^rapport-text-v2\+/);
    });

    it('takes a model file, relative to the working directory', () => {
      const config = loadConfig({ RAPPORT_TEXT_MODEL: path.relative(dir, DEFAULT_MODEL_PATH) }, dir);
      expect(config.textModelPath).toBe(DEFAULT_MODEL_PATH);
      expect(loadTextModel(config).version).toBe(loadTextModel({ textModelPath: null }).version);
    });

    it('refuses a path that is missing or not a file, naming the variable', () => {
      expect(() => loadConfig({ RAPPORT_TEXT_MODEL: 'nowhere/model.json' }, dir)).toThrow(ConfigError);
      expect(() => loadConfig({ RAPPORT_TEXT_MODEL: 'nowhere/model.json' }, dir)).toThrow(/^Invalid configuration: RAPPORT_TEXT_MODEL .*does not exist/);
      expect(() => loadConfig({ RAPPORT_TEXT_MODEL: dir }, dir)).toThrow(/RAPPORT_TEXT_MODEL .*is not a file/);
    });

    it('fails start-up with a clear line for a file that is not a model', () => {
      const notJson = path.join(dir, 'notes.txt');
      writeFileSync(notJson, 'hello');
      const otherShape = path.join(dir, 'other.json');
      writeFileSync(otherShape, JSON.stringify({ format: 'something-else' }));
      expect(() => loadTextModel(loadConfig({ RAPPORT_TEXT_MODEL: notJson }, dir))).toThrow(/^Invalid configuration: RAPPORT_TEXT_MODEL .*notes\.txt could not be loaded: it is not JSON$/);
      expect(() => loadTextModel(loadConfig({ RAPPORT_TEXT_MODEL: otherShape }, dir))).toThrow(ConfigError);
      expect(() => loadTextModel(loadConfig({ RAPPORT_TEXT_MODEL: otherShape }, dir))).toThrow(/RAPPORT_TEXT_MODEL .*format is not "rapport-text-model"/);
    });
  });
});
