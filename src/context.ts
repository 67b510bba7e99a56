import { MemoryRateLimiter, type RateLimiter } from './accounts/rate-limit.ts';
import { TokenAuthenticator } from './accounts/authenticator.ts';
import { UsageMeter } from './accounts/usage.ts';
import { PDF_JOB, pdfAnalysisHandler } from './analysis/analyses.ts';
import { ConfigError, type Config } from './config.ts';
import type { Db } from './db/client.ts';
import { JobWorker } from './jobs/worker.ts';
import { DEFAULT_PDF_LIMITS, PdfExtractor, type PdfLimits } from './personality/pdf/index.ts';
import { DEFAULT_MODEL_PATH, loadModel, type TextModel } from './personality/text/model.ts';
import { TextPool } from './personality/text/pool.ts';
import type { Logger } from './shared/logger.ts';

/**
 * Everything a request or a command needs, built once at start-up and passed explicitly.
 * Optional infrastructure (a shared rate limiter, say) is swapped in here.
 */
export interface AppContext {
  config: Config;
  db: Db;
  logger: Logger;
  auth: TokenAuthenticator;
  limiter: RateLimiter;
  meter: UsageMeter;
  pdf: PdfExtractor;
  pdfLimits: PdfLimits;
  /** The text model every analysis of this process reads with, loaded once (RAPPORT_TEXT_MODEL). */
  model: TextModel;
  /** Analyses callers' texts, long ones in worker threads so the event loop stays free. */
  textPool: TextPool;
  /** The job worker of this process; null where separate `rapport worker` processes run jobs. */
  worker: JobWorker | null;
  /** Tells this process's worker, if any, that a job is waiting. */
  wakeWorker(): void;
  /** Stops background work and flushes what is pending; the database is closed by its owner. */
  shutdown(): Promise<void>;
}

export interface ContextOptions {
  /** Run background jobs in this process (the API server by default, `rapport worker`). */
  runJobs: boolean;
}

/**
 * The configured text model, or a ConfigError naming RAPPORT_TEXT_MODEL: a file that is not
 * a model, or a model trained with other word lists, stops start-up with one clear line.
 */
export function loadTextModel(config: Pick<Config, 'textModelPath'>): TextModel {
  const file = config.textModelPath ?? DEFAULT_MODEL_PATH;
  try {
    return loadModel(file);
  } catch (error) {
    const reason = error instanceof SyntaxError ? 'it is not JSON' : error instanceof Error ? error.message : String(error);
    throw new ConfigError('RAPPORT_TEXT_MODEL', `must name a model file written by \`npm run train\`; ${file} could not be loaded: ${reason}`);
  }
}

export function createContext(config: Config, db: Db, logger: Logger, options: ContextOptions = { runJobs: false }): AppContext {
  // First, so a bad model file fails start-up before anything starts running.
  const model = loadTextModel(config);
  const meter = new UsageMeter(db, 1000, (error) => logger.error({ err: error }, 'usage counts could not be written; will retry'));
  meter.start();
  const pdfLimits: PdfLimits = { ...DEFAULT_PDF_LIMITS, maxBytes: Math.min(DEFAULT_PDF_LIMITS.maxBytes, config.bodyLimitBytes) };
  const pdf = new PdfExtractor(pdfLimits);
  const textPool = new TextPool({ model, modelPath: config.textModelPath ?? DEFAULT_MODEL_PATH, workers: config.textWorkers, maxQueue: config.textMaxQueue, inlineMaxChars: config.textInlineMaxChars });
  let worker: JobWorker | null = null;
  if (options.runJobs) {
    worker = new JobWorker(db, logger);
    const handler = pdfAnalysisHandler({ db, pdf, text: textPool });
    worker.register(PDF_JOB, handler.run, handler.giveUp);
    worker.start();
  }
  return {
    config,
    db,
    logger,
    auth: new TokenAuthenticator(db),
    limiter: new MemoryRateLimiter(),
    meter,
    pdf,
    pdfLimits,
    model,
    textPool,
    worker,
    wakeWorker: () => worker?.wake(),
    async shutdown() {
      await worker?.stop();
      await meter.stop();
      await pdf.close();
      await textPool.close();
    },
  };
}
