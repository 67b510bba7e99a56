import { isMainThread } from 'node:worker_threads';
import { pino, type DestinationStream, type Logger } from 'pino';
import type * as PinoPretty from 'pino-pretty';
import { fdWriter, type FlushableStream } from './fd-writer.ts';
import { loadOnUse } from './load-on-use.ts';

export type { Logger };

/**
 * Query values are written to a log only for parameters known to be harmless (paging and
 * switches). Every other value is `[REDACTED]`: secrets (tokens), and what says who a person
 * is or what they wrote (an email, a profile URL, a text sent for analysis, search terms),
 * however the caller spelt the name (`text`, `Text`, `text[]`, `txt`). A name that is not a
 * short identifier is redacted too, since a mistyped request can put text there. The request
 * id ties a log line to the call without them.
 */
const LOGGED_VALUES = new Set(['page', 'per_page', 'limit', 'offset', 'sort', 'order', 'with_hiring', 'format', 'size', 'async']);
const PLAIN_NAME = /^[\w.[\]-]{1,40}$/;

/** A profile page's id works like a shared link: whoever has it can open the page (and the person's map). */
const PROFILE_PAGE_ID = /^\/p\/[^/?#]+/i;
const PERSON_MAP_ID = /^\/images\/disc-map\/p\/[^/?#]+/i;
/**
 * Path segments a caller may have put a person or a secret in by mistake (an email in place of
 * a query parameter, a token pasted into the path): anything with an @, or as long as a token.
 * The ids this service hands out are shorter (25 characters at most).
 */
const PERSONAL_SEGMENT = /^(?:[^/?#]*(?:@|%40)[^/?#]*|[^/?#]{32,})$/i;

/**
 * A URL redactUrl leaves as it is: no query or fragment, no @ or %-escape, no segment of 32
 * characters or more, and not a profile page or person's map. Most requests' URLs are such
 * (`/v1/usage`, `/healthz`); they skip the splitting below, which a request paid for every line.
 */
const PLAIN_PATH = /^(?!\/p\/|\/images\/disc-map\/p\/)(?:\/[^/?#@%]{0,31})*$/i;

export function redactUrl(url: string): string {
  return PLAIN_PATH.test(url) ? url : redactUrlFully(url);
}

/** redactUrl without its shortcut for plain paths (test/http/request-log.test.ts checks they agree). */
export function redactUrlFully(url: string): string {
  const queryAt = url.search(/[?#]/);
  const pathPart = queryAt < 0 ? url : url.slice(0, queryAt);
  const redactedPath = pathPart
    .replace(PROFILE_PAGE_ID, '/p/[REDACTED]')
    .replace(PERSON_MAP_ID, '/images/disc-map/p/[REDACTED]')
    .split('/')
    .map((segment) => (PERSONAL_SEGMENT.test(segment) ? '[REDACTED]' : segment))
    .join('/');
  const path = redactedPath + (queryAt < 0 ? '' : url.slice(queryAt));
  const queryStart = path.indexOf('?');
  if (queryStart < 0) return path;
  const fragmentStart = path.indexOf('#', queryStart);
  const queryEnd = fragmentStart < 0 ? path.length : fragmentStart;
  const query = path.slice(queryStart + 1, queryEnd).split('&').map(redactParameter).join('&');
  return `${path.slice(0, queryStart)}?${query}${path.slice(queryEnd)}`;
}

/** Even an allowed value is shown only when it looks like one: short, and no address in it. */
const PLAIN_VALUE = /^[\w.,:-]{0,32}$/;

function redactParameter(parameter: string): string {
  if (parameter === '') return parameter;
  const equals = parameter.indexOf('=');
  const name = equals < 0 ? parameter : parameter.slice(0, equals);
  const decoded = safeDecode(name);
  const allowed = LOGGED_VALUES.has(decoded.toLowerCase());
  // A bare word (?Marisol_Quintero) is a value without a name: shown only if it is a known switch.
  if (equals < 0) return allowed ? name : '[REDACTED]';
  const shownName = PLAIN_NAME.test(decoded) ? name : '[REDACTED]';
  const value = parameter.slice(equals + 1);
  return `${shownName}=${allowed && PLAIN_VALUE.test(safeDecode(value)) ? value : '[REDACTED]'}`;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Fields a database error (node-postgres, PGlite) carries besides its message: the statement, its values, the row. */
const DATABASE_ERROR_FIELDS = ['query', 'params', 'parameters', 'values', 'detail', 'where', 'internalQuery'];

/**
 * How an error is written to the log: its class, code, message, stack and cause, and nothing
 * else. pino's own serializer copies every field of an error, and database errors carry the
 * statement and its values (an email looked up, a token's hash). A database error's message
 * can quote a value ("value "3000000000" is out of range"), so its quoted parts are dropped.
 */
export function serializeError(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error, message: 'a value that is not an Error was thrown' };
  const fromDatabase = DATABASE_ERROR_FIELDS.some((field) => field in error);
  const code = (error as { code?: unknown }).code;
  const message = fromDatabase ? error.message.replace(/"[^"]*"/g, '"…"') : error.message;
  const frames = (error.stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at '));
  return {
    type: error.constructor.name || error.name,
    ...(typeof code === 'string' || typeof code === 'number' ? { code: String(code) } : {}),
    message,
    stack: [`${error.name}: ${message}`, ...frames].join('\n'),
    ...(error.cause !== undefined && depth < 3 ? { cause: serializeError(error.cause, depth + 1) } : {}),
  };
}

/** How log lines are written: one JSON object a line (the default, for log collectors), or readable text for a terminal. */
export type LogFormat = 'json' | 'pretty';

/**
 * RAPPORT_LOG_FORMAT=pretty: each line pino has already written (serializers and redaction
 * applied, so a secret masked in JSON is masked here too) is reformatted by pino-pretty,
 * synchronously in this thread, before it reaches `destination` (stdout by default). Colours
 * only on a terminal.
 */
function prettyDestination(destination: DestinationStream | undefined): DestinationStream {
  const target = destination ?? process.stdout;
  // Loaded only for this format: a JSON log (the default) never needs it.
  const { prettyFactory } = loadOnUse('pino-pretty') as typeof PinoPretty;
  const prettify = prettyFactory({
    colorize: destination === undefined && process.stdout.isTTY,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    singleLine: true,
  });
  return { write: (line: string) => target.write(prettify(line)) };
}

export function createLogger(level: string, destination?: DestinationStream, format: LogFormat = 'json'): Logger {
  const options = {
    level,
    serializers: { err: (error: unknown) => serializeError(error) },
    // Belt and braces: if a header object is ever logged, its secrets are masked.
    redact: {
      paths: ['headers.authorization', 'headers["x-org-token"]', 'req.headers.authorization', 'req.headers["x-org-token"]'],
      censor: '[REDACTED]',
    },
  };
  if (format === 'pretty') return pino(options, prettyDestination(destination));
  // A worker thread (the ops listener's) logs little and gets no flush at exit: it writes each line at once.
  return pino(options, destination ?? (isMainThread ? batchedStdout() : fdWriter(1)));
}

/**
 * What each batched output writes as the process exits (the lines of the current stretch, after
 * every batch before them). One listener for all of them: a process that makes many loggers
 * (tests, in-process commands) would pass Node's listener limit.
 */
const exitFlushes: (() => void)[] = [];

function atExit(flush: () => void): void {
  if (exitFlushes.length === 0) process.once('exit', () => exitFlushes.forEach((f) => f()));
  exitFlushes.push(flush);
}

export const LOG_FLUSH_INTERVAL_MS = 10;
const MAX_PENDING_CHARS = 64 * 1024;

/**
 * Standard output written at most once every `intervalMs` (10 ms): the lines of that stretch
 * (under load, of every request answered in it) are joined and written in one call, or at once
 * when they pass `maxPendingChars` (64 KiB), so a flood holds little. A write per request cost
 * ~12 % of an authenticated request's time (`npm run bench`); a hand-over to libuv's thread pool
 * per turn of the event loop ~6 % of its CPU (a CPU profile of `GET /v1/usage`). Once per 10 ms
 * it is ~100 writes a second at most, whatever the load.
 *
 * Each write is synchronous (fd-writer.ts, which says what happens when the output is behind or
 * gone): an asynchronous write still in libuv's thread pool when the process exited raced the
 * exit's flush of the lines after it, and the log came out of order (test/ops/log-output.test.ts
 * caught it about once in 30 exits). A process killed outright (SIGKILL, a crash of the runtime)
 * may lose the lines of its last 10 ms (docs/operations.md, Logs).
 */
export function batchedStdout(
  out: FlushableStream = fdWriter(1),
  intervalMs = LOG_FLUSH_INTERVAL_MS,
  maxPendingChars = MAX_PENDING_CHARS,
): FlushableStream {
  let pending = '';
  let timer: NodeJS.Timeout | null = null;
  const handOver = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending === '') return;
    const lines = pending;
    pending = '';
    out.write(lines);
  };
  atExit(() => {
    handOver();
    out.flushSync();
  });
  return {
    write(line: string) {
      pending += line;
      if (pending.length >= maxPendingChars) handOver();
      else if (!timer) {
        timer = setTimeout(handOver, intervalMs);
        // The exit flush writes what is left: a pending line must not keep the process alive.
        timer.unref();
      }
    },
    flush(callback) {
      handOver();
      out.flush(callback);
    },
    flushSync() {
      handOver();
      out.flushSync();
    },
  };
}
