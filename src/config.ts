import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';

/** Everything the process reads from its environment, validated once at start-up. */
export interface Config {
  host: string;
  port: number;
  connectPort: number;
  dataDir: string;
  databaseUrl: string | null;
  /** Public base of {base_url}; null = the host each request came to. */
  publicBaseUrl: string | null;
  /** Public base of {connect_url}; null = the host each request came to. */
  publicConnectUrl: string | null;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Largest request body accepted, in bytes (JSON, forms, uploads). */
  bodyLimitBytes: number;
  /** Load the fictional demo people on first start. */
  demoData: boolean;
  /** Run background jobs in the API process (off when separate `rapport worker` processes do it). */
  inProcessWorker: boolean;
  /** PDF analyses one token may have in progress at once; more uploads wait with a 429. */
  pdfMaxPending: number;
  /** The text model's weights file; null = the model committed with the code. */
  textModelPath: string | null;
  /** Worker threads that analyse long texts off the event loop. */
  textWorkers: number;
  /** Long texts that may wait for a text worker; more get 503 with Retry-After. */
  textMaxQueue: number;
  /** Texts of this many characters or more are analysed in a worker thread. */
  textInlineMaxChars: number;
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

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const logLevel = env.LOG_LEVEL ?? 'info';
  const level = LOG_LEVELS.find((l) => l === logLevel);
  if (!level) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  const port = readPort(env, 'PORT', 8080);
  const connectPort = readPort(env, 'CONNECT_PORT', 8081);
  if (port !== 0 && port === connectPort) {
    throw new ConfigError('CONNECT_PORT', `must differ from PORT (both are ${port})`);
  }
  return {
    host: env.HOST ?? '0.0.0.0',
    port,
    connectPort,
    dataDir: path.resolve(cwd, env.RAPPORT_DATA_DIR ?? 'data'),
    databaseUrl: readUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    publicBaseUrl: readUrl(env, 'PUBLIC_BASE_URL', ['http:', 'https:']),
    publicConnectUrl: readUrl(env, 'PUBLIC_CONNECT_URL', ['http:', 'https:']),
    logLevel: level,
    bodyLimitBytes: readSize(env, 'BODY_LIMIT', 12 * 1024 * 1024, 1024),
    demoData: readBool(env, 'RAPPORT_DEMO_DATA', true),
    inProcessWorker: readBool(env, 'RAPPORT_IN_PROCESS_WORKER', true),
    pdfMaxPending: readCount(env, 'RAPPORT_PDF_MAX_PENDING', 50),
    textModelPath: readTextModelPath(env, cwd),
    textWorkers: readCount(env, 'RAPPORT_TEXT_WORKERS', defaultTextWorkers()),
    textMaxQueue: readCount(env, 'RAPPORT_TEXT_MAX_QUEUE', 64),
    textInlineMaxChars: readCount(env, 'RAPPORT_TEXT_INLINE_CHARS', 5000),
  };
}
