import { createRequire } from 'node:module';

/**
 * Loads a package synchronously the first time a path that needs it runs, through its CommonJS
 * entry (every package loaded this way has one). For packages only some settings or commands
 * use (SMTP_URL's mail, RAPPORT_LOG_FORMAT=pretty, REDIS_URL's shared limits, a CSV import's
 * parser, a progress bar on a terminal, a PNG rendered in a worker thread): a static import loaded
 * them into every `rapport` process, the service's start and each test that starts one included, ~0.1 s of CPU for
 * nodemailer alone. Callers cast the result to the package's type (`import type * as …`).
 */
export const loadOnUse: (name: string) => unknown = createRequire(import.meta.url);
