import { statSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { getHeapStatistics } from 'node:v8';

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
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** RAPPORT_LOG_FORMAT: one JSON object a line (default), or `pretty`, readable text for a terminal. */
  logFormat: 'json' | 'pretty';
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

export class ConfigError extends Error {
  constructor(readonly variable: string, message: string) {
    super(`Invalid configuration: ${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function readPort(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isInteger(value) || value < 0 || value > 65535) {
    throw new ConfigError(name, `must be a port number between 0 and 65535, got "${raw}"`);
  }
  return value;
}

function readUrl(env: Env, name: string, protocols: string[]): string | null {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be a URL (${protocols.join(' or ')}), got something that does not parse`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(name, `must start with ${protocols.join(' or ')}, got "${url.protocol}"`);
  }
  return raw.trim().replace(/\/+$/, '');
}

function readBool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

/** A size in bytes from `512kb`, `10mb` or `2048`, of at least `minimum` (given in kb in the message). */
function readSize(env: Env, name: string, fallback: number, minimum: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const match = /^(\d+)\s*(b|kb|mb)?$/i.exec(raw.trim());
  if (!match?.[1]) throw new ConfigError(name, `must be a size such as 10mb or 512kb, got "${raw}"`);
  const unit = (match[2] ?? 'b').toLowerCase();
  const factor = unit === 'mb' ? 1024 * 1024 : unit === 'kb' ? 1024 : 1;
  const bytes = Number(match[1]) * factor;
  if (bytes < minimum) throw new ConfigError(name, `must be at least ${minimum / 1024}kb, got "${raw}"`);
  return bytes;
}

function readCount(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1) throw new ConfigError(name, `must be a whole number of at least 1, got "${raw}"`);
  return Number(raw);
}

/** A whole number of at least 0 (0 usually switches the feature off). */
function readWhole(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `must be a whole number (0 or more), got "${raw}"`);
  return Number(raw);
}

/** By default shedding starts at 90 % of the heap V8 may grow to (set by --max-old-space-size). */
function defaultHeapThreshold(): number {
  return Math.floor(getHeapStatistics().heap_size_limit * 0.9);
}

function readMetricsToken(env: Env): string | null {
  const raw = env.RAPPORT_METRICS_TOKEN;
  if (raw === undefined || raw === '') return null;
  if (raw.length < 16 || /\s/.test(raw)) throw new ConfigError('RAPPORT_METRICS_TOKEN', 'must be at least 16 characters without spaces');
  return raw;
}

function readSecret(env: Env, name: string): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  // The value itself never goes into the message: it is a secret.
  if (raw.length < 32) throw new ConfigError(name, `must be at least 32 characters long (got ${raw.length})`);
  return raw;
}

/** A duration in whole seconds (`30` or `30s`), between `min` and `max`; returned in ms. */
function readSeconds(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback * 1000;
  const match = /^(\d+)\s*s?$/i.exec(raw.trim());
  const value = Number(match?.[1]);
  if (!match || value < min || value > max) throw new ConfigError(name, `must be a number of seconds from ${min} to ${max}, got "${raw}"`);
  return value * 1000;
}

/** A whole number, 0 allowed when `zeroMeans` says what 0 does. */
function readLimit(env: Env, name: string, fallback: number, zeroMeans?: string): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const min = zeroMeans ? 0 : 1;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min) {
    throw new ConfigError(name, `must be a whole number of at least ${min}${zeroMeans ? ` (0: ${zeroMeans})` : ''}, got "${raw}"`);
  }
  return Number(raw);
}

function readHttpLimits(env: Env): HttpLimits {
  const requestTimeoutMs = readSeconds(env, 'REQUEST_TIMEOUT', 30, 1, 3600);
  // Unset, it follows a REQUEST_TIMEOUT set below its own default rather than refusing to start.
  const headersTimeoutMs = readSeconds(env, 'HEADERS_TIMEOUT', Math.min(10, requestTimeoutMs / 1000), 1, 3600);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError('HEADERS_TIMEOUT', `must not exceed REQUEST_TIMEOUT (${requestTimeoutMs / 1000} s), got ${headersTimeoutMs / 1000} s`);
  }
  return {
    requestTimeoutMs,
    headersTimeoutMs,
    idleTimeoutMs: readSeconds(env, 'IDLE_TIMEOUT', 60, 1, 3600),
    keepAliveTimeoutMs: readSeconds(env, 'KEEP_ALIVE_TIMEOUT', 5, 1, 600),
    maxRequestsPerConnection: readLimit(env, 'MAX_REQUESTS_PER_CONNECTION', 0, 'no limit'),
    maxConnections: readLimit(env, 'MAX_CONNECTIONS', 1000),
    maxConnectionsPerClient: readLimit(env, 'MAX_CONNECTIONS_PER_CLIENT', 256, 'no limit'),
    shutdownTimeoutMs: readSeconds(env, 'SHUTDOWN_TIMEOUT', 10, 1, 3600),
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
  const raw = env.RAPPORT_TEXT_MODEL;
  if (raw === undefined || raw.trim() === '') return null;
  const resolved = path.resolve(cwd, raw.trim());
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
  const raw = env.RAPPORT_TRUST_PROXY?.trim();
  if (raw === undefined || raw === '' || /^(false|no|off)$/i.test(raw)) return false;
  if (/^(true|yes|on)$/i.test(raw)) return true;
  if (/^\d+$/.test(raw)) return Number(raw) === 0 ? false : Number(raw);
  const entries = raw.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  for (const entry of entries) {
    const [address = '', bits, ...rest] = entry.split('/');
    const family = isIP(address);
    const maxBits = family === 6 ? 128 : 32;
    const validBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    if (NAMED_RANGES.has(entry) || (family !== 0 && rest.length === 0 && validBits)) continue;
    throw new ConfigError('RAPPORT_TRUST_PROXY', `must be true, false, a number of proxy hops, or proxy addresses and ranges separated by commas (10.0.0.1, 10.0.0.0/8, loopback); "${entry}" is none of these`);
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

/** `someone@example.com` or `Display Name <someone@example.com>`, on one line. */
const SENDER = /^(?:[^<>\r\n"]*<[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)$/;

/**
 * SMTP_URL and SMTP_FROM go together. Links in mail are built from PUBLIC_BASE_URL only: a
 * link built from a request's Host header would let a caller send someone a confirmation link
 * to a host of the caller's, and so collect the secret it carries.
 */
export function readMail(env: Env, publicBaseUrl: string | null): MailConfig | null {
  const url = env.SMTP_URL?.trim() ?? '';
  const from = env.SMTP_FROM?.trim() ?? '';
  if (url === '') {
    if (from !== '') throw new ConfigError('SMTP_FROM', 'is set but SMTP_URL is not: set both to send mail, or neither');
    return null;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // The value may hold a password: it is not repeated.
    throw new ConfigError('SMTP_URL', 'must be a URL such as smtp://user:password@mail.example.com:587 (or smtps:// for TLS from the start); the value given does not parse');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') throw new ConfigError('SMTP_URL', `must start with smtp:// or smtps://, got "${parsed.protocol}//"`);
  if (parsed.hostname === '') throw new ConfigError('SMTP_URL', 'must name the mail server, as in smtp://mail.example.com:587');
  if (from === '') throw new ConfigError('SMTP_FROM', 'must be set with SMTP_URL: the sender of the mail, like "Rapport <no-reply@example.com>"');
  if (!SENDER.test(from)) throw new ConfigError('SMTP_FROM', `must be an address or "Name <address>" on one line, got "${from}"`);
  if (publicBaseUrl === null) throw new ConfigError('SMTP_URL', 'needs PUBLIC_BASE_URL: links in mail are built from it, never from the Host header a request names');
  return { smtpUrl: url, from };
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const logLevel = env.LOG_LEVEL ?? 'info';
  const level = LOG_LEVELS.find((l) => l === logLevel);
  if (!level) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  const logFormat = env.RAPPORT_LOG_FORMAT?.trim().toLowerCase() || 'json';
  if (logFormat !== 'json' && logFormat !== 'pretty') throw new ConfigError('RAPPORT_LOG_FORMAT', `must be json or pretty, got "${env.RAPPORT_LOG_FORMAT ?? ''}"`);
  const port = readPort(env, 'PORT', 8080);
  const connectPort = readPort(env, 'CONNECT_PORT', 8081);
  if (port !== 0 && port === connectPort) {
    throw new ConfigError('CONNECT_PORT', `must differ from PORT (both are ${port})`);
  }
  const dataDir = path.resolve(cwd, env.RAPPORT_DATA_DIR ?? 'data');
  const publicBaseUrl = readUrl(env, 'PUBLIC_BASE_URL', ['http:', 'https:']);
  return {
    host: env.HOST ?? '0.0.0.0',
    port,
    connectPort,
    dataDir,
    databaseUrl: readUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    databasePoolSize: readLimit(env, 'DATABASE_POOL_SIZE', 10),
    publicBaseUrl,
    publicConnectUrl: readUrl(env, 'PUBLIC_CONNECT_URL', ['http:', 'https:']),
    trustProxy: readTrustProxy(env),
    production: env.NODE_ENV === 'production',
    logLevel: level,
    logFormat,
    bodyLimitBytes: readSize(env, 'BODY_LIMIT', 12 * 1024 * 1024, 1024),
    demoData: readBool(env, 'RAPPORT_DEMO_DATA', true),
    inProcessWorker: readBool(env, 'RAPPORT_IN_PROCESS_WORKER', true),
    pdfMaxPending: readCount(env, 'RAPPORT_PDF_MAX_PENDING', 50),
    redisUrl: readUrl(env, 'REDIS_URL', ['redis:', 'rediss:']),
    shedEventLoopDelayMs: readWhole(env, 'RAPPORT_SHED_EVENT_LOOP_DELAY_MS', 250),
    shedHeapUsedBytes: env.RAPPORT_SHED_HEAP_MB ? readWhole(env, 'RAPPORT_SHED_HEAP_MB', 0) * 1024 * 1024 : defaultHeapThreshold(),
    metricsPort: env.RAPPORT_METRICS_PORT ? readPort(env, 'RAPPORT_METRICS_PORT', 0) : null,
    metricsHost: env.RAPPORT_METRICS_HOST ?? '127.0.0.1',
    metricsToken: readMetricsToken(env),
    syncTimeoutMs: readCount(env, 'RAPPORT_SYNC_TIMEOUT_MS', 5000),
    requestRetentionDays: readCount(env, 'RAPPORT_REQUEST_RETENTION_DAYS', 7),
    signup: readBool(env, 'RAPPORT_SIGNUP', true),
    sessionSecret: readSecret(env, 'RAPPORT_SESSION_SECRET'),
    uploadDir: env.RAPPORT_UPLOAD_DIR?.trim() ? path.resolve(cwd, env.RAPPORT_UPLOAD_DIR.trim()) : path.join(dataDir, 'uploads'),
    uploadsAtOnce: readCount(env, 'RAPPORT_UPLOADS_AT_ONCE', 64),
    pdfWorkers: readLimit(env, 'RAPPORT_PDF_WORKERS', defaultPdfWorkers()),
    http: readHttpLimits(env),
    textModelPath: readTextModelPath(env, cwd),
    textWorkers: readCount(env, 'RAPPORT_TEXT_WORKERS', defaultTextWorkers()),
    textMaxQueue: readCount(env, 'RAPPORT_TEXT_MAX_QUEUE', 64),
    textInlineMaxChars: readCount(env, 'RAPPORT_TEXT_INLINE_CHARS', 5000),
    mail: readMail(env, publicBaseUrl),
    webhooks: readWebhooks(env),
  };
}

/** A day of retries by default, as the issue and Standard Webhooks' own schedule suggest; shorter for tests. */
function readWebhooks(env: Env): WebhookConfig {
  return {
    allowPrivate: readBool(env, 'RAPPORT_WEBHOOK_ALLOW_PRIVATE', false),
    timeoutMs: readSeconds(env, 'RAPPORT_WEBHOOK_TIMEOUT', 5, 1, 60),
    firstRetryMs: readCount(env, 'RAPPORT_WEBHOOK_FIRST_RETRY_MS', 5000),
    retryForMs: readSeconds(env, 'RAPPORT_WEBHOOK_RETRY_FOR', 24 * 3600, 1, 7 * 24 * 3600),
  };
}
