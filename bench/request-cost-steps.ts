/** The steps of bench/request-cost.ts in order; each adds its piece to all the ones before it. */
export const STEPS = [
  'bare',
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
