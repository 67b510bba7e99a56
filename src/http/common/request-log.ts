import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';
import { redactUrl } from '../../shared/logger.ts';

/**
 * A caller's request id is kept when it has the shapes request ids come in and a secret does
 * not: a UUID or other hex id (what proxies and tracers make: nginx's $request_id, W3C trace
 * ids) up to 64 characters, or a short label of up to 31 letters, digits and `._:-`
 * ("trace-123"). Anything longer (our tokens are 47 characters, session ids 43, test links 32),
 * and anything starting like one of our tokens, gets an id of our own instead: the id is written
 * to every log line, and a token pasted into the header must not be.
 */
const HEX_ID = /^(?=[0-9A-Fa-f-]{8,64}$)[0-9A-Fa-f]+(?:-[0-9A-Fa-f]+)*$/;
const SHORT_LABEL = /^[\w.:-]{1,31}$/;
const TOKEN_LIKE = /^rp[eac]_/i;

export function isSafeRequestId(value: string): boolean {
  if (HEX_ID.test(value)) return true;
  return SHORT_LABEL.test(value) && !TOKEN_LIKE.test(value);
}

/** Keeps a caller's request id when it is safe to echo and log, otherwise makes one. */
export function requestIdFor(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  if (typeof incoming === 'string' && isSafeRequestId(incoming)) return incoming;
  return randomUUID();
}

const LOG_METHODS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * `request.log`, made on first use. Fastify gives every request a child of the app's logger
 * bound to its request id; pino builds a child as a new object with its own level methods, the
 * largest cost of the log line after its write (~1 µs a request, and objects of a new shape each
 * time). Most requests never log through it (their one line is written by the hook below), so
 * the child is made only when something logs: the same lines, with the same request id.
 */
class RequestLogger implements FastifyBaseLogger {
  declare fatal: FastifyBaseLogger['fatal'];
  declare error: FastifyBaseLogger['error'];
  declare warn: FastifyBaseLogger['warn'];
  declare info: FastifyBaseLogger['info'];
  declare debug: FastifyBaseLogger['debug'];
  declare trace: FastifyBaseLogger['trace'];
  declare silent: FastifyBaseLogger['silent'];
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  real(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }
}

for (const method of LOG_METHODS) {
  RequestLogger.prototype[method] = function (this: RequestLogger, ...args: unknown[]) {
    const real = this.real();
    (real[method] as (...logged: unknown[]) => void).apply(real, args);
  };
}

/** Fastify's `childLoggerFactory`: each request's logger, made when first used. */
export function lazyRequestLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new RequestLogger(logger, bindings, options);
}

/**
 * One line per request, with the request id and no secrets (query tokens are redacted). It is
 * written through the app's logger with `request_id` as its first field, which is the line the
 * request's own child writes (the child puts its binding there), without making the child.
 * Hooks here and in the other per-request hooks of src/http/common take `done` rather than
 * being async: an async hook costs a promise and a turn of the microtask queue on every request.
 */
export function installRequestLog(app: FastifyInstance): void {
  const log = app.log;
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    log.info(
      {
        request_id: request.id,
        method: request.method,
        url: redactUrl(request.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        token_id: request.apiToken?.id,
      },
      'request',
    );
    done();
  });
}
