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
    expect(config.uploadsAtOnce).toBe(64);
    expect(loadConfig({ RAPPORT_UPLOADS_AT_ONCE: '8' }).uploadsAtOnce).toBe(8);
    expect(config).toMatchObject({ syncTimeoutMs: 5000, requestRetentionDays: 7 });
    expect(loadConfig({ RAPPORT_SYNC_TIMEOUT_MS: '250', RAPPORT_REQUEST_RETENTION_DAYS: '30' })).toMatchObject({ syncTimeoutMs: 250, requestRetentionDays: 30 });
  });

  it('writes JSON logs unless a readable format is asked for', () => {
    expect(loadConfig({}).logFormat).toBe('json');
    expect(loadConfig({ RAPPORT_LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({ RAPPORT_LOG_FORMAT: 'json' }).logFormat).toBe('json');
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
    [{ RAPPORT_LOG_FORMAT: 'yaml' }, 'RAPPORT_LOG_FORMAT'],
    [{ BODY_LIMIT: 'huge' }, 'BODY_LIMIT'],
    [{ BODY_LIMIT: '0' }, 'BODY_LIMIT'],
    [{ BODY_LIMIT: '1023' }, 'BODY_LIMIT'],
    [{ BODY_LIMIT: '0kb' }, 'BODY_LIMIT'],
    [{ RAPPORT_PDF_MAX_PENDING: '0' }, 'RAPPORT_PDF_MAX_PENDING'],
    [{ RAPPORT_PDF_MAX_PENDING: '2.5' }, 'RAPPORT_PDF_MAX_PENDING'],
    [{ RAPPORT_UPLOADS_AT_ONCE: '0' }, 'RAPPORT_UPLOADS_AT_ONCE'],
    [{ REDIS_URL: 'http://localhost:6379' }, 'REDIS_URL'],
    [{ RAPPORT_SHED_EVENT_LOOP_DELAY_MS: 'fast' }, 'RAPPORT_SHED_EVENT_LOOP_DELAY_MS'],
    [{ RAPPORT_SHED_HEAP_MB: '-5' }, 'RAPPORT_SHED_HEAP_MB'],
    [{ RAPPORT_METRICS_PORT: 'nine' }, 'RAPPORT_METRICS_PORT'],
    [{ RAPPORT_METRICS_TOKEN: 'short' }, 'RAPPORT_METRICS_TOKEN'],
    [{ RAPPORT_SYNC_TIMEOUT_MS: '5s' }, 'RAPPORT_SYNC_TIMEOUT_MS'],
    [{ RAPPORT_REQUEST_RETENTION_DAYS: '0' }, 'RAPPORT_REQUEST_RETENTION_DAYS'],
    [{ REQUEST_TIMEOUT: '0' }, 'REQUEST_TIMEOUT'],
    [{ REQUEST_TIMEOUT: '30 minutes' }, 'REQUEST_TIMEOUT'],
    [{ HEADERS_TIMEOUT: '40' }, 'HEADERS_TIMEOUT'],
    [{ IDLE_TIMEOUT: '-5' }, 'IDLE_TIMEOUT'],
    [{ KEEP_ALIVE_TIMEOUT: 'forever' }, 'KEEP_ALIVE_TIMEOUT'],
    [{ MAX_CONNECTIONS: '0' }, 'MAX_CONNECTIONS'],
    [{ DATABASE_POOL_SIZE: '0' }, 'DATABASE_POOL_SIZE'],
    [{ MAX_CONNECTIONS_PER_CLIENT: 'ten' }, 'MAX_CONNECTIONS_PER_CLIENT'],
    [{ MAX_REQUESTS_PER_CONNECTION: '1.5' }, 'MAX_REQUESTS_PER_CONNECTION'],
    [{ RAPPORT_PDF_WORKERS: '0' }, 'RAPPORT_PDF_WORKERS'],
    [{ RAPPORT_TEXT_WORKERS: '0' }, 'RAPPORT_TEXT_WORKERS'],
    [{ RAPPORT_TEXT_MAX_QUEUE: 'many' }, 'RAPPORT_TEXT_MAX_QUEUE'],
    [{ RAPPORT_TEXT_INLINE_CHARS: '-5' }, 'RAPPORT_TEXT_INLINE_CHARS'],
  ])('rejects %o naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration: ${variable} `));
  });

  it('says which variable, what was given and what is expected, from the schema', () => {
    const refusals: [Record<string, string>, string][] = [
      [{ REQUEST_TIMEOUT: '30 minutes' }, 'REQUEST_TIMEOUT must be a number of seconds from 1 to 3600, got "30 minutes"'],
      [{ RAPPORT_WEBHOOK_TIMEOUT: '90' }, 'RAPPORT_WEBHOOK_TIMEOUT must be a number of seconds from 1 to 60, got "90"'],
      [{ MAX_CONNECTIONS_PER_CLIENT: 'ten' }, 'MAX_CONNECTIONS_PER_CLIENT must be a whole number of at least 0 (0: no limit), got "ten"'],
      [{ RAPPORT_SIGNUP: 'maybe' }, 'RAPPORT_SIGNUP must be true or false, got "maybe"'],
      [{ RAPPORT_LOG_FORMAT: 'yaml' }, 'RAPPORT_LOG_FORMAT must be one of json, pretty, got "yaml"'],
      [{ BODY_LIMIT: 'huge' }, 'BODY_LIMIT must be a size such as 10mb or 512kb, got "huge"'],
      [{ PUBLIC_BASE_URL: 'ftp://x' }, 'PUBLIC_BASE_URL must start with http:// or https://, got "ftp://"'],
    ];
    for (const [env, message] of refusals) expect(() => loadConfig(env)).toThrow(`Invalid configuration: ${message}`);
    // A URL that may hold a password is never repeated, parsed or not.
    for (const env of [{ DATABASE_URL: 'postgres//rapport:pa55word@db' }, { REDIS_URL: 'rediss//:pa55word@cache' }, { RAPPORT_METRICS_TOKEN: 'pa55word' }]) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).not.toThrow(/pa55word/);
    }
  });

  it('reads the operations settings: Redis, load shedding, metrics', () => {
    const defaults = loadConfig({});
    expect(defaults).toMatchObject({ redisUrl: null, shedEventLoopDelayMs: 250, metricsPort: null, metricsHost: '127.0.0.1', metricsToken: null, databasePoolSize: 10 });
    expect(loadConfig({ DATABASE_POOL_SIZE: '4' }).databasePoolSize).toBe(4);
    expect(defaults.shedHeapUsedBytes).toBeGreaterThan(100 * 1024 * 1024);
    const set = loadConfig({
      REDIS_URL: 'redis://cache.internal:6379/2',
      RAPPORT_SHED_EVENT_LOOP_DELAY_MS: '0',
      RAPPORT_SHED_HEAP_MB: '0',
      RAPPORT_METRICS_PORT: '9464',
      RAPPORT_METRICS_TOKEN: 'a-long-metrics-token',
    });
    expect(set).toMatchObject({ redisUrl: 'redis://cache.internal:6379/2', shedEventLoopDelayMs: 0, shedHeapUsedBytes: 0, metricsPort: 9464, metricsToken: 'a-long-metrics-token' });
  });

  it('bounds every connection by default: body within 30 s, headers within 10 s, connection counts', () => {
    const config = loadConfig({}, '/srv/rapport');
    expect(config.http).toEqual({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      idleTimeoutMs: 60_000,
      keepAliveTimeoutMs: 5_000,
      maxRequestsPerConnection: 0,
      maxConnections: 1000,
      maxConnectionsPerClient: 256,
      shutdownTimeoutMs: 10_000,
    });
    expect(config.uploadDir).toBe('/srv/rapport/data/uploads');
    expect(config.pdfWorkers).toBeGreaterThanOrEqual(2);
    const custom = loadConfig({ REQUEST_TIMEOUT: '5s', HEADERS_TIMEOUT: '2', MAX_CONNECTIONS_PER_CLIENT: '0', RAPPORT_UPLOAD_DIR: 'spool', RAPPORT_PDF_WORKERS: '3' }, '/srv');
    expect(custom.http).toMatchObject({ requestTimeoutMs: 5000, headersTimeoutMs: 2000, maxConnectionsPerClient: 0 });
    expect(custom).toMatchObject({ uploadDir: '/srv/spool', pdfWorkers: 3 });
    // A short REQUEST_TIMEOUT alone: the headers' timeout follows it down, and the service starts.
    expect(loadConfig({ REQUEST_TIMEOUT: '5' }).http).toMatchObject({ requestTimeoutMs: 5000, headersTimeoutMs: 5000 });
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

  it('reads RAPPORT_SIGNUP and RAPPORT_SESSION_SECRET, never echoing the secret', () => {
    expect(loadConfig({}).signup).toBe(true);
    expect(loadConfig({ RAPPORT_SIGNUP: 'false' }).signup).toBe(false);
    expect(loadConfig({}).sessionSecret).toBeNull();
    const secret = 'x'.repeat(40);
    expect(loadConfig({ RAPPORT_SESSION_SECRET: secret }).sessionSecret).toBe(secret);
    expect(() => loadConfig({ RAPPORT_SESSION_SECRET: 'short-secret' })).toThrow('Invalid configuration: RAPPORT_SESSION_SECRET must be at least 32 characters long (got 12)');
  });

  it('reads SMTP_URL and SMTP_FROM together, with PUBLIC_BASE_URL for the links, never echoing the URL', () => {
    expect(loadConfig({}).mail).toBeNull();
    const mail = { SMTP_URL: 'smtp://user:pa55word@mail.example.com:587', SMTP_FROM: 'Rapport <no-reply@example.com>', PUBLIC_BASE_URL: 'https://rapport.example.com' };
    expect(loadConfig(mail).mail).toEqual({ smtpUrl: 'smtp://user:pa55word@mail.example.com:587', from: 'Rapport <no-reply@example.com>' });
    expect(loadConfig({ ...mail, SMTP_URL: 'smtps://mail.example.com', SMTP_FROM: 'no-reply@example.com' }).mail).toEqual({ smtpUrl: 'smtps://mail.example.com', from: 'no-reply@example.com' });
    const refusals: [Record<string, string>, RegExp][] = [
      [{ ...mail, SMTP_URL: 'http://user:pa55word@mail.example.com' }, /^Invalid configuration: SMTP_URL must start with smtp:\/\/ or smtps:\/\//],
      [{ ...mail, SMTP_URL: 'smtp://[pa55word' }, /^Invalid configuration: SMTP_URL must be a URL/],
      [{ ...mail, SMTP_FROM: '' }, /^Invalid configuration: SMTP_FROM must be set with SMTP_URL/],
      [{ ...mail, SMTP_FROM: 'not an address' }, /^Invalid configuration: SMTP_FROM must be an address/],
      [{ ...mail, SMTP_FROM: 'a@example.com\r\nBcc: b@example.com' }, /^Invalid configuration: SMTP_FROM must be an address/],
      [{ SMTP_FROM: 'no-reply@example.com' }, /^Invalid configuration: SMTP_FROM is set but SMTP_URL is not/],
      // Links in mail never come from a request's Host header.
      [{ ...mail, PUBLIC_BASE_URL: '' }, /^Invalid configuration: SMTP_URL needs PUBLIC_BASE_URL/],
    ];
    for (const [env, message] of refusals) {
      expect(() => loadConfig(env)).toThrow(message);
      try {
        loadConfig(env);
      } catch (error) {
        expect(String(error)).not.toContain('pa55word');
      }
    }
  });

  describe('RAPPORT_TEXT_MODEL', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rapport-model-config-'));

    it('defaults to the committed model and loads it once into the context', () => {
      const config = loadConfig({}, dir);
      expect(config.textModelPath).toBeNull();
      const model = loadTextModel(config);
      expect(model.version).toMatch(/^rapport-text-v3\+/);
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
