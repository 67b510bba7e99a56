/**
 * The steps of bench/request-cost.ts in order; each adds its piece to all the ones before it.
 * `bare` is bench/bare-server.ts, the yardstick bench/http.ts measures too; `usage body` answers
 * the usage answer's shape (a fixed body, JSON.stringify) from bench/request-cost-server.ts. The
 * database is opened and the context built from `token lookup` on, the first step that reads them.
 * The last steps are what the whole app adds around the same hooks: its server options (the
 * connection, request and keep-alive timeouts, the proxy setting, the client-error handler), the
 * per-client connection limit, and @fastify/multipart registered over every route (as group A
 * had it before it was scoped to its two upload routes).
 */
export const STEPS = [
  'bare',
  'usage body',
  'response schema',
  'request id',
  'request log',
  'security headers + NUL guard + error body',
  'metrics',
  'overload guard',
  'body parsers + input guards',
  'token lookup',
  'limits + metering',
  'usage handler',
  // What the whole app adds around the same hooks (src/app.ts's createFastify, group A's plugins).
  'server timeouts + trust proxy',
  'connection limit',
  'multipart plugin',
] as const;

export type Step = (typeof STEPS)[number];
