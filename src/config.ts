import { statSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { ConfigError, readSetting, settingSchema, type SettingName, type Settings } from './config-schema.ts';

export { ConfigError } from './config-schema.ts';

/** Everything the process reads from its environment, validated once at start-up. */
export interface Config {
  host: string;
  port: number;
  connectPort: number;
  dataDir: string;
  databaseUrl: string | null;
  /** PostgreSQL connections each process may open (its pool); every process has its own. */
  databasePoolSize: number;
  /** Public base of {base_url}; null = the host each request came to. */
  publicBaseUrl: string | null;
  /** Public base of {connect_url}; null = the host each request came to. */
  publicConnectUrl: string | null;
  /**
   * Whose X-Forwarded-For, -Proto and -Host to believe (Fastify's trustProxy): false, true (every
   * peer), a number of proxy hops, or a list of proxy addresses and ranges.
   */
  trustProxy: boolean | number | string[];
  /** NODE_ENV=production: a start then needs PUBLIC_BASE_URL and PUBLIC_CONNECT_URL (checkProductionLinks). */
  production: boolean;
  logLevel: Settings['LOG_LEVEL'];
  /** RAPPORT_LOG_FORMAT: one JSON object a line (default), or `pretty`, readable text for a terminal. */
  logFormat: Settings['RAPPORT_LOG_FORMAT'];
  /** Largest request body accepted, in bytes (JSON, forms, uploads). */
  bodyLimitBytes: number;
  /** Load the fictional demo people on first start. */
  demoData: boolean;
  /** Run background jobs in the API process (off when separate `rapport worker` processes do it). */
  inProcessWorker: boolean;
  /** PDF analyses one token may have in progress at once; more uploads wait with a 429. */
  pdfMaxPending: number;
  /** Redis for per-minute windows shared by every API process; null = windows in this process. */
  redisUrl: string | null;
  /** Load shedding: 503 + Retry-After while the event loop's median lag over a second is above this (ms); 0 = off. */
  shedEventLoopDelayMs: number;
  /** Load shedding: 503 + Retry-After while the V8 heap in use is above this (bytes); 0 = off. */
  shedHeapUsedBytes: number;
  /** Port of the Prometheus `/metrics` listener; null = no separate listener. */
  metricsPort: number | null;
  /** Interface of the metrics listener (loopback by default: metrics are for the operator). */
  metricsHost: string;
  /** When set, `/metrics` needs `Authorization: Bearer <token>` (and is also served on {base_url}). */
  metricsToken: string | null;
  /** How long the synchronous Connect search waits for its result before answering 202. */
  syncTimeoutMs: number;
  /** Days a Connect profile request is kept before it is purged. */
  requestRetentionDays: number;
  /** Anyone may create an account at /signup; off, only `rapport users create` makes accounts. */
  signup: boolean;
  /** Key that signs session cookies; null = one the service makes and keeps in the database. */
  sessionSecret: string | null;
  /** Where uploads are written as they arrive and kept until their analysis ends. */
  uploadDir: string;
  /** PDF uploads this process receives at once; one more is answered 503 before its body is read. */
  uploadsAtOnce: number;
  /** PDF worker threads, and so PDF analyses run at once by this process. */
  pdfWorkers: number;
  /** Connection limits and timeouts of both hosts. */
  http: HttpLimits;
  /** The text model's weights file; null = the model committed with the code. */
  textModelPath: string | null;
  /** Worker threads that analyse long texts off the event loop. */
  textWorkers: number;
  /** Long texts that may wait for a text worker; more get 503 with Retry-After. */
  textMaxQueue: number;
  /** Texts of this many characters or more are analysed in a worker thread. */
  textInlineMaxChars: number;
  /** Mail for confirmation links (SMTP_URL, SMTP_FROM); null: the service sends no mail. */
  mail: MailConfig | null;
  /** Webhook delivery (src/webhooks/README.md). */
  webhooks: WebhookConfig;
}

export interface WebhookConfig {
  /** RAPPORT_WEBHOOK_ALLOW_PRIVATE: http URLs and private or loopback addresses may receive webhooks (tests, on-premise). */
  allowPrivate: boolean;
  /** A receiver must answer within this (ms); slower is a failed attempt. */
  timeoutMs: number;
  /** The first retry comes about this long after a failed first attempt (ms); each later one waits three times longer. */
  firstRetryMs: number;
  /** Deliveries are retried for this long after their event (ms); an endpoint failing this long is disabled. */
  retryForMs: number;
}

export interface MailConfig {
  /** smtp:// or smtps:// URL with its user and password (nodemailer reads options from its query). */
  smtpUrl: string;
  /** The sender, `address` or `Name <address>`. */
  from: string;
}

export interface HttpLimits {
  /** Whole request, body included, must arrive within this (408 or a closed socket after). */
  requestTimeoutMs: number;
  /** Request line and headers must arrive within this. */
  headersTimeoutMs: number;
  /** A connection with nothing sent or received for this long is closed. */
  idleTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Requests served on one connection before it is closed (the client reconnects). */
  maxRequestsPerConnection: number;
  /** Open connections per host and process; further ones are closed at once. */
  maxConnections: number;
  /** Open connections from one client address per host; 0 = no such limit (behind a proxy). */
  maxConnectionsPerClient: number;
  /** On SIGTERM, requests still open this long after it are cut off (stalled or trickling uploads). */
  shutdownTimeoutMs: number;
}

type Env = Record<string, string | undefined>;

/** A setting as the schema reads it, for one whose schema has a default. */
function setting<K extends SettingName>(env: Env, name: K): Settings[K] {
  const value = readSetting(env, name);
  if (value === undefined) throw new Error(`${name} has no default in src/config-schema.ts`);
  return value;
}

/** A duration setting, in ms. */
const ms = (env: Env, name: SettingName & ('REQUEST_TIMEOUT' | 'HEADERS_TIMEOUT' | 'IDLE_TIMEOUT' | 'KEEP_ALIVE_TIMEOUT' | 'SHUTDOWN_TIMEOUT' | 'RAPPORT_WEBHOOK_TIMEOUT' | 'RAPPORT_WEBHOOK_RETRY_FOR')) => setting(env, name) * 1000;

/** By default shedding starts at 90 % of the heap V8 may grow to (set by --max-old-space-size). */
function defaultHeapThreshold(): number {
  return Math.floor(getHeapStatistics().heap_size_limit * 0.9);
}

function readHttpLimits(env: Env): HttpLimits {
  const requestTimeoutMs = ms(env, 'REQUEST_TIMEOUT');
  // Unset, it follows a REQUEST_TIMEOUT set below its own default rather than refusing to start.
  const headersSet = (env.HEADERS_TIMEOUT ?? '').trim() !== '';
  const headersTimeoutMs = headersSet ? ms(env, 'HEADERS_TIMEOUT') : Math.min(ms(env, 'HEADERS_TIMEOUT'), requestTimeoutMs);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError('HEADERS_TIMEOUT', `must not exceed REQUEST_TIMEOUT (${requestTimeoutMs / 1000} s), got ${headersTimeoutMs / 1000} s`);
  }
  return {
    requestTimeoutMs,
    headersTimeoutMs,
    idleTimeoutMs: ms(env, 'IDLE_TIMEOUT'),
    keepAliveTimeoutMs: ms(env, 'KEEP_ALIVE_TIMEOUT'),
    maxRequestsPerConnection: setting(env, 'MAX_REQUESTS_PER_CONNECTION'),
    maxConnections: setting(env, 'MAX_CONNECTIONS'),
    maxConnectionsPerClient: setting(env, 'MAX_CONNECTIONS_PER_CLIENT'),
    shutdownTimeoutMs: ms(env, 'SHUTDOWN_TIMEOUT'),
  };
}

/** Two PDF workers at least, so one slow document does not hold the next; four at most (256 MB heap each). */
function defaultPdfWorkers(): number {
  return Math.min(4, Math.max(2, availableParallelism()));
}

/**
 * RAPPORT_TEXT_MODEL: a weights file written by `npm run train` (relative to the working
 * directory). Here only its existence is checked; its content is checked when the context
 * loads it (context.ts), which fails start-up with the same variable named.
 */
export function readTextModelPath(env: Env, cwd: string): string | null {
  const raw = readSetting(env, 'RAPPORT_TEXT_MODEL');
  if (raw === undefined) return null;
  const resolved = path.resolve(cwd, raw);
  let isFile = false;
  try {
    isFile = statSync(resolved).isFile();
  } catch {
    throw new ConfigError('RAPPORT_TEXT_MODEL', `must name a model file written by \`npm run train\`; ${resolved} does not exist or cannot be read`);
  }
  if (!isFile) throw new ConfigError('RAPPORT_TEXT_MODEL', `must name a model file written by \`npm run train\`; ${resolved} is not a file`);
  return resolved;
}

/**
 * One core is left to the event loop (HTTP, the database); the workers get the rest. A
 * 2-core machine gets one worker.
 */
export function defaultTextWorkers(cores = availableParallelism()): number {
  return Math.max(1, cores - 1);
}

/** proxy-addr's names for address ranges, accepted in RAPPORT_TRUST_PROXY beside addresses and CIDRs. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * RAPPORT_TRUST_PROXY: unset or false, no forwarded header is believed (the connection's own
 * address and scheme count); true, every peer's; a number, that many proxy hops; otherwise a
 * comma-separated list of the proxies' addresses or ranges (10.0.0.0/8, loopback).
 */
function readTrustProxy(env: Env): boolean | number | string[] {
  const raw = setting(env, 'RAPPORT_TRUST_PROXY');
  if (/^(false|no|off)$/i.test(raw)) return false;
  if (/^(true|yes|on)$/i.test(raw)) return true;
  if (/^\d+$/.test(raw)) return Number(raw) === 0 ? false : Number(raw);
  const entries = raw.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  for (const entry of entries) {
    const [address = '', bits, ...rest] = entry.split('/');
    const family = isIP(address);
    const maxBits = family === 6 ? 128 : 32;
    const validBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    if (NAMED_RANGES.has(entry) || (family !== 0 && rest.length === 0 && validBits)) continue;
    throw new ConfigError('RAPPORT_TRUST_PROXY', `must be ${settingSchema('RAPPORT_TRUST_PROXY').expected ?? ''}; "${entry}" is none of these`);
  }
  return entries;
}

/**
 * In production, links in answers come from PUBLIC_BASE_URL and PUBLIC_CONNECT_URL only: built
 * from the Host header, a caller could make the service hand out links to another host. Checked
 * when the service starts (operator commands do not build links).
 */
export function checkProductionLinks(config: Pick<Config, 'production' | 'publicBaseUrl' | 'publicConnectUrl'>): void {
  if (!config.production) return;
  for (const [name, value] of [['PUBLIC_BASE_URL', config.publicBaseUrl], ['PUBLIC_CONNECT_URL', config.publicConnectUrl]] as const) {
    if (value === null) {
      throw new ConfigError(name, 'must be set when NODE_ENV=production: links in answers are built from it, never from the Host header a caller sends (set it to the address clients use, e.g. https://rapport.example.com)');
    }
  }
}

/**
 * SMTP_URL and SMTP_FROM go together. Links in mail are built from PUBLIC_BASE_URL only: a
 * link built from a request's Host header would let a caller send someone a confirmation link
 * to a host of the caller's, and so collect the secret it carries.
 */
export function readMail(env: Env, publicBaseUrl: string | null): MailConfig | null {
  const url = readSetting(env, 'SMTP_URL');
  if (url === undefined) {
    if (readSetting(env, 'SMTP_FROM') !== undefined) throw new ConfigError('SMTP_FROM', 'is set but SMTP_URL is not: set both to send mail, or neither');
    return null;
  }
  // The URL may hold a password: only the server's name is checked here, and it is not repeated.
  if (new URL(url).hostname === '') throw new ConfigError('SMTP_URL', 'must name the mail server, as in smtp://mail.example.com:587');
  const from = readSetting(env, 'SMTP_FROM');
  if (from === undefined) throw new ConfigError('SMTP_FROM', 'must be set with SMTP_URL: the sender of the mail, like "Rapport <no-reply@example.com>"');
  if (publicBaseUrl === null) throw new ConfigError('SMTP_URL', 'needs PUBLIC_BASE_URL: links in mail are built from it, never from the Host header a request names');
  return { smtpUrl: url, from };
}

/** The environment read through the schema (src/config-schema.ts), shaped for the code that uses it. */
export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const logLevel = setting(env, 'LOG_LEVEL');
  const logFormat = setting(env, 'RAPPORT_LOG_FORMAT');
  const port = setting(env, 'PORT');
  const connectPort = setting(env, 'CONNECT_PORT');
  if (port !== 0 && port === connectPort) {
    throw new ConfigError('CONNECT_PORT', `must differ from PORT (both are ${port})`);
  }
  const dataDir = path.resolve(cwd, setting(env, 'RAPPORT_DATA_DIR'));
  const publicBaseUrl = readSetting(env, 'PUBLIC_BASE_URL') ?? null;
  const shedHeapMb = readSetting(env, 'RAPPORT_SHED_HEAP_MB');
  const uploadDir = readSetting(env, 'RAPPORT_UPLOAD_DIR');
  return {
    host: setting(env, 'HOST'),
    port,
    connectPort,
    dataDir,
    databaseUrl: readSetting(env, 'DATABASE_URL') ?? null,
    databasePoolSize: setting(env, 'DATABASE_POOL_SIZE'),
    publicBaseUrl,
    publicConnectUrl: readSetting(env, 'PUBLIC_CONNECT_URL') ?? null,
    trustProxy: readTrustProxy(env),
    production: readSetting(env, 'NODE_ENV') === 'production',
    logLevel,
    logFormat,
    bodyLimitBytes: setting(env, 'BODY_LIMIT'),
    demoData: setting(env, 'RAPPORT_DEMO_DATA'),
    inProcessWorker: setting(env, 'RAPPORT_IN_PROCESS_WORKER'),
    pdfMaxPending: setting(env, 'RAPPORT_PDF_MAX_PENDING'),
    redisUrl: readSetting(env, 'REDIS_URL') ?? null,
    shedEventLoopDelayMs: setting(env, 'RAPPORT_SHED_EVENT_LOOP_DELAY_MS'),
    shedHeapUsedBytes: shedHeapMb === undefined ? defaultHeapThreshold() : shedHeapMb * 1024 * 1024,
    metricsPort: readSetting(env, 'RAPPORT_METRICS_PORT') ?? null,
    metricsHost: setting(env, 'RAPPORT_METRICS_HOST'),
    metricsToken: readSetting(env, 'RAPPORT_METRICS_TOKEN') ?? null,
    syncTimeoutMs: setting(env, 'RAPPORT_SYNC_TIMEOUT_MS'),
    requestRetentionDays: setting(env, 'RAPPORT_REQUEST_RETENTION_DAYS'),
    signup: setting(env, 'RAPPORT_SIGNUP'),
    sessionSecret: readSetting(env, 'RAPPORT_SESSION_SECRET') ?? null,
    uploadDir: uploadDir === undefined ? path.join(dataDir, 'uploads') : path.resolve(cwd, uploadDir),
    uploadsAtOnce: setting(env, 'RAPPORT_UPLOADS_AT_ONCE'),
    pdfWorkers: readSetting(env, 'RAPPORT_PDF_WORKERS') ?? defaultPdfWorkers(),
    http: readHttpLimits(env),
    textModelPath: readTextModelPath(env, cwd),
    textWorkers: readSetting(env, 'RAPPORT_TEXT_WORKERS') ?? defaultTextWorkers(),
    textMaxQueue: setting(env, 'RAPPORT_TEXT_MAX_QUEUE'),
    textInlineMaxChars: setting(env, 'RAPPORT_TEXT_INLINE_CHARS'),
    mail: readMail(env, publicBaseUrl),
    webhooks: readWebhooks(env),
  };
}

/** A day of retries by default, as the issue and Standard Webhooks' own schedule suggest; shorter for tests. */
function readWebhooks(env: Env): WebhookConfig {
  return {
    allowPrivate: setting(env, 'RAPPORT_WEBHOOK_ALLOW_PRIVATE'),
    timeoutMs: ms(env, 'RAPPORT_WEBHOOK_TIMEOUT'),
    firstRetryMs: setting(env, 'RAPPORT_WEBHOOK_FIRST_RETRY_MS'),
    retryForMs: ms(env, 'RAPPORT_WEBHOOK_RETRY_FOR'),
  };
}
