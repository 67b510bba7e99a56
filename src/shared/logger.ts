import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** Query parameters that carry secrets: never written to a log. */
const SECRET_PARAMS = /([?&](?:token|api_key|access_token|password)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[REDACTED]');
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    // Belt and braces: if a header object is ever logged, its secrets are masked.
    redact: {
      paths: ['headers.authorization', 'headers["x-org-token"]', 'req.headers.authorization', 'req.headers["x-org-token"]'],
      censor: '[REDACTED]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
