import { Type, type Static, type TSchema } from 'typebox';
import Value from 'typebox/value';

/**
 * Every environment variable the service reads, as one TypeBox schema: its name, type, default,
 * range and meaning. `loadConfig` (config.ts) reads the environment through it, the error for a
 * bad value is written from it, and test/config-docs.test.ts checks the settings table in the
 * docs against it. A setting whose default depends on the machine (cores, heap) has none here;
 * `defaultNote` says what it is.
 *
 * Values arrive as strings. How one is read depends on its `kind`: a `port`, a `count` (1 or
 * more), a `whole` number (0 allowed, `zero` says what 0 does), a `size` (`10mb`, `512kb`,
 * bytes), `seconds` (`30` or `30s`), a `switch` (true/false, yes/no, on/off, 1/0), a `url` of
 * the listed `protocols`, or text. A `secret` is never repeated in an error.
 */

type Kind = 'port' | 'count' | 'whole' | 'size' | 'seconds' | 'switch' | 'url' | 'text' | 'choice';

interface Annotations {
  description: string;
  kind: Kind;
  /** What 0 does, for a whole number where 0 is allowed. */
  zero?: string;
  /** A default that depends on the machine or another setting, in words. */
  defaultNote?: string;
  protocols?: string[];
  secret?: boolean;
  /** For text: what a valid value looks like, for the error. */
  expected?: string;
}

const port = (fallback: number | undefined, description: string, defaultNote?: string) =>
  Type.Integer({ minimum: 0, maximum: 65535, ...(fallback === undefined ? {} : { default: fallback }), kind: 'port', description, ...(defaultNote ? { defaultNote } : {}) });
const count = (fallback: number | undefined, description: string, defaultNote?: string) =>
  Type.Integer({ minimum: 1, ...(fallback === undefined ? {} : { default: fallback }), kind: 'count', description, ...(defaultNote ? { defaultNote } : {}) });
const whole = (fallback: number | undefined, zero: string, description: string, defaultNote?: string) =>
  Type.Integer({ minimum: 0, ...(fallback === undefined ? {} : { default: fallback }), kind: 'whole', zero, description, ...(defaultNote ? { defaultNote } : {}) });
const seconds = (fallback: number, maximum: number, description: string, defaultNote?: string) =>
  Type.Integer({ minimum: 1, maximum, default: fallback, kind: 'seconds', description, ...(defaultNote ? { defaultNote } : {}) });
const onOff = (fallback: boolean, description: string) => Type.Boolean({ default: fallback, kind: 'switch', description });
const url = (protocols: string[], description: string, secret = false) => Type.String({ kind: 'url', protocols, secret, description });
const text = (fallback: string | undefined, description: string, more: Partial<Annotations> & { minLength?: number; pattern?: string } = {}) =>
  Type.String({ ...(fallback === undefined ? {} : { default: fallback }), kind: 'text', description, ...more });

/** `someone@example.com` or `Display Name <someone@example.com>`, on one line. */
const SENDER = '^(?:[^<>\\r\\n"]*<[^\\s<>@]+@[^\\s<>@]+\\.[^\\s<>@]+>|[^\\s<>@]+@[^\\s<>@]+\\.[^\\s<>@]+)$';

export const settingsSchema = Type.Object({
  PORT: port(8080, '{base_url} port (groups A and B, pages, images)'),
  CONNECT_PORT: port(8081, '{connect_url} port (group C); must differ from PORT'),
  HOST: text('0.0.0.0', 'interface to listen on'),
  RAPPORT_DATA_DIR: text('data', 'embedded database directory, relative to the working directory'),
  DATABASE_URL: url(['postgres:', 'postgresql:'], 'a PostgreSQL server instead of the embedded database', true),
  DATABASE_POOL_SIZE: count(10, 'PostgreSQL connections each process may open'),
  PUBLIC_BASE_URL: url(['http:', 'https:'], 'public base of {base_url}; unset, the host each request came to'),
  PUBLIC_CONNECT_URL: url(['http:', 'https:'], 'public base of {connect_url}; unset, the host each request came to'),
  RAPPORT_TRUST_PROXY: text('false', 'whose X-Forwarded-For, -Proto and -Host to believe: true, false, a number of proxy hops, or proxy addresses and ranges', {
    expected: 'true, false, a number of proxy hops, or proxy addresses and ranges separated by commas (10.0.0.1, 10.0.0.0/8, loopback)',
  }),
  NODE_ENV: text(undefined, 'production: a start needs PUBLIC_BASE_URL and PUBLIC_CONNECT_URL'),
  LOG_LEVEL: Type.Union([Type.Literal('fatal'), Type.Literal('error'), Type.Literal('warn'), Type.Literal('info'), Type.Literal('debug'), Type.Literal('trace'), Type.Literal('silent')], { default: 'info', kind: 'choice', description: 'the least severe level written' }),
  RAPPORT_LOG_FORMAT: Type.Union([Type.Literal('json'), Type.Literal('pretty')], { default: 'json', kind: 'choice', description: 'json: one JSON object a line; pretty: readable lines for a terminal' }),
  BODY_LIMIT: Type.Integer({ minimum: 1024, default: 12 * 1024 * 1024, kind: 'size', description: 'largest request body accepted (JSON, forms, uploads)' }),
  RAPPORT_DEMO_DATA: onOff(true, 'load the fictional demo people into an empty database'),
  RAPPORT_IN_PROCESS_WORKER: onOff(true, 'run background jobs in the API process'),
  RAPPORT_SIGNUP: onOff(true, 'anyone may create an account at /signup'),
  SMTP_URL: url(['smtp:', 'smtps:'], 'the mail server for confirmation links, smtp://user:password@host:587 or smtps://…', true),
  SMTP_FROM: text(undefined, 'the sender of those mails', { pattern: SENDER, expected: 'an address or "Name <address>" on one line' }),
  RAPPORT_SESSION_SECRET: text(undefined, 'key that signs session cookies; unset, one the service makes and keeps in the database', { minLength: 32, secret: true }),
  RAPPORT_PDF_MAX_PENDING: count(50, 'PDF analyses one token may have in progress'),
  REDIS_URL: url(['redis:', 'rediss:'], 'Redis for per-minute limits shared by every API process', true),
  RAPPORT_SHED_EVENT_LOOP_DELAY_MS: whole(250, 'off', 'load shedding: 503 while the median event-loop delay is above this (ms)'),
  RAPPORT_SHED_HEAP_MB: whole(undefined, 'off', 'load shedding: 503 while the heap in use is above this (MB)', '90 % of the heap limit'),
  RAPPORT_METRICS_PORT: port(undefined, 'port of the operations listener (/metrics, /healthz); unset, none'),
  RAPPORT_METRICS_HOST: text('127.0.0.1', 'interface of the operations listener'),
  RAPPORT_METRICS_TOKEN: text(undefined, '/metrics needs Authorization: Bearer <token>', { minLength: 16, pattern: '^\\S+$', secret: true, expected: 'at least 16 characters without spaces' }),
  RAPPORT_SYNC_TIMEOUT_MS: count(5000, 'how long POST /v1/profiles waits for its answer before 202 (ms)'),
  RAPPORT_WEBHOOK_ALLOW_PRIVATE: onOff(false, 'webhooks may go to http:// URLs and private or loopback addresses'),
  RAPPORT_WEBHOOK_TIMEOUT: seconds(5, 60, 'seconds a webhook receiver has to answer'),
  RAPPORT_WEBHOOK_RETRY_FOR: seconds(24 * 3600, 7 * 24 * 3600, 'seconds a failing delivery is retried'),
  RAPPORT_WEBHOOK_FIRST_RETRY_MS: count(5000, 'the first retry\'s wait (ms)'),
  RAPPORT_REQUEST_RETENTION_DAYS: count(7, 'days a Connect search and a finished job are kept'),
  RAPPORT_PDF_WORKERS: count(undefined, 'PDF worker threads', 'cores, 2 to 4'),
  RAPPORT_UPLOAD_DIR: text(undefined, 'where uploads are written as they arrive', { defaultNote: 'RAPPORT_DATA_DIR/uploads' }),
  RAPPORT_UPLOADS_AT_ONCE: count(64, 'PDF uploads one process receives at once'),
  REQUEST_TIMEOUT: seconds(30, 3600, 'seconds for a whole request, body included, to arrive'),
  HEADERS_TIMEOUT: seconds(10, 3600, 'seconds for the request line and headers to arrive (at most REQUEST_TIMEOUT)', '10, or REQUEST_TIMEOUT if lower'),
  IDLE_TIMEOUT: seconds(60, 3600, 'seconds a connection may stay silent'),
  KEEP_ALIVE_TIMEOUT: seconds(5, 600, 'seconds an idle keep-alive connection is kept open'),
  MAX_REQUESTS_PER_CONNECTION: whole(0, 'no limit', 'requests served on one connection before it is closed'),
  MAX_CONNECTIONS: count(1000, 'open connections per host and process'),
  MAX_CONNECTIONS_PER_CLIENT: whole(256, 'no limit', 'open connections from one address per host'),
  SHUTDOWN_TIMEOUT: seconds(10, 3600, 'seconds SIGTERM waits for requests in flight'),
  RAPPORT_TEXT_MODEL: text(undefined, 'text model file written by npm run train; unset, the committed model'),
  RAPPORT_TEXT_WORKERS: count(undefined, 'worker threads that analyse long texts', 'cores − 1 (at least 1)'),
  RAPPORT_TEXT_MAX_QUEUE: count(64, 'long texts that may wait for a text worker'),
  RAPPORT_TEXT_INLINE_CHARS: count(5000, 'texts of this many characters or more go to a worker'),
  // Read by bin/rapport.mjs before any TypeScript loads (it checks the value itself); here for the docs.
  RAPPORT_RUNTIME: Type.Union([Type.Literal('dist'), Type.Literal('source')], { kind: 'choice', description: 'force bin/rapport.mjs to run the compiled build or the TypeScript sources' }),
});

export type Settings = Static<typeof settingsSchema>;
export type SettingName = keyof Settings;
export const SETTING_NAMES = Object.keys(settingsSchema.properties) as SettingName[];

/** A setting's schema with its annotations. */
export function settingSchema(name: SettingName): TSchema & Annotations & Record<string, unknown> {
  return settingsSchema.properties[name] as unknown as TSchema & Annotations & Record<string, unknown>;
}

export class ConfigError extends Error {
  constructor(readonly variable: string, message: string) {
    super(`Invalid configuration: ${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** What a valid value of `schema` looks like, in words, for the error; `parsed`: the value read but is out of range. */
function expectation(schema: ReturnType<typeof settingSchema>, parsed: boolean): string {
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  switch (schema.kind) {
    case 'port': return `a port number between ${min ?? 0} and ${max ?? 65535}`;
    case 'count': return 'a whole number of at least 1';
    case 'whole': return `a whole number of at least 0${schema.zero ? ` (0: ${schema.zero})` : ''}`;
    case 'seconds': return `a number of seconds from ${min ?? 1} to ${max ?? ''}`;
    case 'size': return parsed ? `at least ${(min ?? 0) / 1024}kb` : 'a size such as 10mb or 512kb';
    case 'switch': return 'true or false';
    case 'choice': return `one of ${(Array.isArray(schema.anyOf) ? schema.anyOf : []).map((option: { const?: unknown }) => String(option.const)).join(', ')}`;
    case 'url': return `a URL such as ${(schema.protocols ?? []).map((p) => `${p}//…`).join(' or ')}`;
    case 'text': return schema.expected ?? (typeof schema.minLength === 'number' ? `at least ${schema.minLength} characters long` : 'text');
  }
}

/** The string as the schema's type: a number, a boolean, or the trimmed text; undefined when it does not parse. */
function convert(schema: ReturnType<typeof settingSchema>, raw: string): unknown {
  const value = raw.trim();
  switch (schema.kind) {
    case 'port': case 'count': case 'whole':
      return /^\d+$/.test(value) ? Number(value) : undefined;
    case 'seconds': {
      const match = /^(\d+)\s*s?$/i.exec(value);
      return match ? Number(match[1]) : undefined;
    }
    case 'size': {
      const match = /^(\d+)\s*(b|kb|mb)?$/i.exec(value);
      if (!match) return undefined;
      const unit = (match[2] ?? 'b').toLowerCase();
      return Number(match[1]) * (unit === 'mb' ? 1024 * 1024 : unit === 'kb' ? 1024 : 1);
    }
    case 'switch':
      return /^(1|true|yes|on)$/i.test(value) ? true : /^(0|false|no|off)$/i.test(value) ? false : undefined;
    case 'url':
      return URL.canParse(value) ? value.replace(/\/+$/, '') : undefined;
    case 'choice': case 'text':
      return value;
  }
}

/**
 * The value of one setting: unset or empty gives the schema's default (undefined when it has
 * none); anything else must convert and pass the schema, or a ConfigError names the variable,
 * what was given (never a secret) and what is expected.
 */
export function readSetting<K extends SettingName>(env: Env, name: K): Settings[K] | undefined {
  const schema = settingSchema(name);
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return schema.default as Settings[K] | undefined;
  const value = convert(schema, raw);
  if (value !== undefined && schema.kind === 'url') {
    const protocol = new URL(String(value)).protocol;
    if (!(schema.protocols ?? []).includes(protocol)) throw new ConfigError(name, `must start with ${(schema.protocols ?? []).map((p) => `${p}//`).join(' or ')}, got "${protocol}//"`);
  }
  if (value !== undefined && Value.Check(schema, value)) return value as Settings[K];
  const given = schema.secret ? (schema.kind === 'text' ? ` (got ${raw.length})` : ': the value given does not parse (it is not repeated: it may hold a password)') : `, got "${raw}"`;
  throw new ConfigError(name, `must be ${expectation(schema, value !== undefined)}${given}`);
}
