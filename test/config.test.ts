import { describe, expect, it } from 'vitest';
import { ConfigError, defaultTextWorkers, loadConfig } from '../src/config.ts';

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
});
