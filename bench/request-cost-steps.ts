/**
 * The steps of bench/request-cost.ts in order; each adds its piece to all the ones before it.
 * `bare` is bench/bare-server.ts, the yardstick bench/http.ts measures too; `usage body` answers
 * the usage answer's shape (a fixed body, JSON.stringify) from bench/request-cost-server.ts. The
 * database is opened and the context built from `token lookup` on, the first step that reads them.
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
] as const;

export type Step = (typeof STEPS)[number];
