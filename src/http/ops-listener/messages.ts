import type { HttpLimits } from '../../config.ts';
import type { HealthLimits } from '../../monitoring/vital-signs.ts';
import type { LogFormat } from '../../shared/logger.ts';

/** What the operations thread starts with. */
export interface OpsThreadData {
  host: string;
  port: number;
  /** RAPPORT_METRICS_TOKEN, or null when /metrics is open on this listener. */
  metricsToken: string | null;
  http: HttpLimits;
  logLevel: string;
  logFormat: LogFormat;
  databaseKind: 'embedded' | 'postgres';
  /** The main thread's vital signs (src/monitoring/vital-signs.ts). */
  vitals: SharedArrayBuffer;
  limits: HealthLimits;
}

/** Thread → main thread. */
export type FromOpsThread =
  | { type: 'listening'; port: number }
  | { type: 'listen_failed'; message: string; code: string | undefined }
  /** A scrape: the main thread answers with its metrics' text. */
  | { type: 'scrape'; id: number }
  /** A request answered, for the request metrics (counted on the main thread's registry). */
  | { type: 'served'; route: string; method: string; status: number; seconds: number };

/** Main thread → thread. */
export type ToOpsThread =
  | { type: 'scraped'; id: number; text: string; contentType: string }
  | { type: 'scrape_failed'; id: number; message: string }
  | { type: 'close' };
