import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Query parameters never written to a log: secrets (tokens), and what says who a person is or
 * what they wrote (a lookup's email or profile URL, a text sent for analysis, search terms).
 * The request id ties a log line to the call without them.
 */
const REDACTED_PARAMS = new Set([
  'token',
  'api_key',
  'access_token',
  'password',
  'text',
  'email',
  'linkedin_url',
  'name',
  'first_name',
  'last_name',
  'company',
  'company_name',
  'location',
]);
const QUERY_PARAM = /([?&])([^=&#]*)=([^&#]*)/g;

/** A profile page's id works like a shared link: whoever has it can open the page. */
const PROFILE_PAGE_ID = /^\/p\/[^/?#]+/;

export function redactUrl(url: string): string {
  return url
    .replace(PROFILE_PAGE_ID, '/p/[REDACTED]')
    .replace(QUERY_PARAM, (whole: string, separator: string, name: string) =>
      REDACTED_PARAMS.has(safeDecode(name).toLowerCase()) ? `${separator}${name}=[REDACTED]` : whole,
    );
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
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
