import type { Redis } from 'ioredis';
import { MemoryRateLimiter, type RateLimiter } from './access/rate-limit.ts';
import { RedisRateLimiter } from './access/redis-rate-limit.ts';
import { TokenAuthenticator } from './access/authenticator.ts';
import { UsageMeter } from './access/usage.ts';
import { PDF_JOB, pdfAnalysisHandler } from './analysis/analyses.ts';
import { UploadSpool } from './analysis/spool.ts';
import { ConfigError, type Config } from './config.ts';
import type { Db } from './db/client.ts';
import { JobWorker } from './jobs/worker.ts';
import { Metrics } from './monitoring/metrics.ts';
import { OverloadMonitor } from './monitoring/overload.ts';
import { FinishedRequestWriter } from './connect/finished-writer.ts';
import { startPurging } from './connect/purge.ts';
import { PROFILE_SEARCH_JOB } from './connect/profile-search.ts';
import { profileSearchJobs } from './connect/search-jobs.ts';
import { DEFAULT_PDF_LIMITS, PdfExtractor, type PdfLimits } from './personality/pdf/index.ts';
import { DEFAULT_MODEL_PATH, loadModel, type TextModel } from './personality/text/model.ts';
import { TextPool } from './personality/text/pool.ts';
import type { Logger } from './shared/logger.ts';
import { onFirstUse } from './shared/on-first-use.ts';
import { SessionStore } from './users/sessions.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { PersonLookups } from './people/lookups.ts';
import { DiscMapRenderer } from './pages/disc-map-renderer.ts';
import { prepareProfileContent } from './content/compose-profile.ts';
import { loadContent, type Content } from './content/load-content.ts';
import { DescriptionCache } from './content/description-cache.ts';
import { RecommendationsCache } from './content/connect/recommendations-cache.ts';
import { TextResultCache } from './analysis/text-results.ts';
import { systemResolver, type AddressPolicy } from './webhooks/address-check.ts';
import { DELIVERY_BATCH, DELIVERY_LANES, deliveryLeaseSeconds, webhookDeliveryJobs } from './webhooks/delivery-jobs.ts';
import { WEBHOOK_JOB } from './webhooks/events.ts';
import { WebhookSender } from './webhooks/sender.ts';

/**
 * Everything a request or a command needs, built once at start-up and passed explicitly.
 * Optional infrastructure (a shared rate limiter, say) is swapped in here.
 */
export interface AppContext {
  config: Config;
  db: Db;
  /** Profile lookups by email, URL or public id, batched per turn of the event loop. */
  people: PersonLookups;
  logger: Logger;
  auth: TokenAuthenticator;
  limiter: RateLimiter;
  meter: UsageMeter;
  pdf: PdfExtractor;
  pdfLimits: PdfLimits;
  metrics: Metrics;
  /** Whether this process is overloaded now (load shedding). */
  overload: OverloadMonitor;
  /** Log-in sessions of registered users (group B's dashboard). */
  sessions: SessionStore;
  /** Confirmation links by mail (SMTP_URL); a mailer that is not `enabled` where none is set up. */
  mailer: Mailer;
  /** Uploaded PDFs on disk until their analysis ends. */
  spool: UploadSpool;
  /** DISC map PNGs, drawn in a worker thread and cached. */
  discMaps: DiscMapRenderer;
  /** The text model every analysis of this process reads with, loaded once (RAPPORT_TEXT_MODEL). */
  model: TextModel;
  /** Every phrase, template and advice file (src/content), read and checked once at start-up. */
  content: Content;
  /** Analyses callers' texts, long ones in worker threads so the event loop stays free. */
  textPool: TextPool;
  /** Answers of the text analysis routes reused for a text sent again (analysis/text-results.ts). */
  textResults: TextResultCache;
  /** Profile content reused for equal composition inputs (content/description-cache.ts). */
  descriptions: DescriptionCache;
  /** C2's recommendations composed once per reading (content/connect/recommendations-cache.ts). */
  recommendations: RecommendationsCache;
  /** The job worker of this process; null where separate `rapport worker` processes run jobs. */
  worker: JobWorker | null;
  /** Tells this process's worker, if any, that a job is waiting. */
  wakeWorker(): void;
  /** Stores the answered sync searches of this process, many rows in one statement. */
  finishedRequests: FinishedRequestWriter;
  /** Where webhooks may go (RAPPORT_WEBHOOK_ALLOW_PRIVATE), checked when an endpoint is registered and on every attempt. */
  webhookAddresses: AddressPolicy;
  /** Stops background work and flushes what is pending; the database is closed by its owner. */
  shutdown(): Promise<void>;
}

export interface ContextOptions {
  /** Run background jobs in this process (the API server by default, `rapport worker`). */
  runJobs: boolean;
  /** A connected Redis client (REDIS_URL): per-minute windows are then shared by every process. */
  redis?: Redis;
  /** Content already loaded in this process (startService loads it before anything opens); read from src/content otherwise. */
  content?: Content;
  /**
   * The text model RAPPORT_TEXT_MODEL names, already loaded in this process; read from its file
   * otherwise. For a process that builds many contexts on one model (test files sharing a worker).
   */
  model?: TextModel;
  /**
   * Load the text model and the content, and make the text pool, when a verb first reads them
   * rather than now: for a CLI command run in its own process (`rapport tokens list`), which
   * mostly needs none of them and would spend about a second of CPU loading them. A broken
   * model or content file then fails the command that reads it, with the same message. The
   * service and `rapport worker` load everything at start, so a broken file stops them there.
   */
  loadOnFirstUse?: boolean;
}

/** Logs a failing shared limiter at most every ten seconds; every call counts in the metric. */
function failOpenReporter(logger: Logger, metrics: Metrics): (error: unknown) => void {
  let lastLog = 0;
  return (error) => {
    metrics.rateLimiterFailOpen.inc();
    const now = Date.now();
    if (now - lastLog < 10_000) return;
    lastLog = now;
    logger.warn({ err: error }, 'Redis did not answer: per-minute rate limits are not enforced until it is back (monthly quotas still are)');
  };
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
  const model = onFirstUse(() => options.model ?? loadTextModel(config));
  // Every content file is read and checked (a broken one stops the start, naming it), and the
  // phrase library indexed, so the first profiles do not pay for the index (~20 ms each otherwise).
  const content = onFirstUse(() => {
    const loaded = options.content ?? loadContent();
    prepareProfileContent(loaded.phrases);
    return loaded;
  });
  const atStart = options.loadOnFirstUse !== true || options.runJobs;
  if (atStart) {
    // First, so a bad model or content file fails start-up before anything starts running.
    model.get();
    content.get();
  }
  const metrics = new Metrics(db);
  const overload = new OverloadMonitor({ maxEventLoopDelayMs: config.shedEventLoopDelayMs, maxHeapUsedBytes: config.shedHeapUsedBytes });
  const limiter: RateLimiter = options.redis ? new RedisRateLimiter(options.redis, failOpenReporter(logger, metrics)) : new MemoryRateLimiter();
  const meter = new UsageMeter(db, 1000, (error) => logger.error({ err: error }, 'usage counts could not be written; will retry'));
  meter.start();
  const pdfLimits: PdfLimits = { ...DEFAULT_PDF_LIMITS, maxBytes: Math.min(DEFAULT_PDF_LIMITS.maxBytes, config.bodyLimitBytes) };
  const pdf = new PdfExtractor(pdfLimits, config.pdfWorkers);
  const spool = new UploadSpool(config.uploadDir, config.uploadsAtOnce);
  const discMaps = new DiscMapRenderer();
  const textPool = onFirstUse(
    () =>
      new TextPool({
        model: model.get(),
        modelPath: config.textModelPath ?? DEFAULT_MODEL_PATH,
        workers: config.textWorkers,
        maxQueue: config.textMaxQueue,
        inlineMaxChars: config.textInlineMaxChars,
      }),
  );
  if (atStart) textPool.get();
  const finishedRequests = new FinishedRequestWriter(db);
  const mailer = createMailer(config.mail, logger);
  const webhookAddresses: AddressPolicy = { allowPrivate: config.webhooks.allowPrivate, resolve: systemResolver };
  let worker: JobWorker | null = null;
  let sender: WebhookSender | null = null;
  let stopPurging = () => {};
  if (options.runJobs) {
    // One job per PDF worker thread: several PDFs are analysed at once, each in its own thread.
    const jobs = new JobWorker(db, logger, { concurrency: config.pdfWorkers });
    worker = jobs;
    // A finished job that queued a webhook wakes the worker at once, so it goes out now, not at the next poll.
    const wake = () => jobs.wake();
    const handler = pdfAnalysisHandler({ db, pdf, spool, text: textPool.get(), wake });
    jobs.register(PDF_JOB, handler.run, handler.giveUp);
    // Connect searches are many and small: claimed and finished a batch at a time.
    const search = profileSearchJobs({ db, text: textPool.get(), wake });
    jobs.registerBatch(PROFILE_SEARCH_JOB, search.run, search.giveUp);
    // Webhook deliveries wait on receivers, not on this machine: several batches at once, each with a lease as long as its slowest run.
    sender = new WebhookSender(webhookAddresses, config.webhooks.timeoutMs);
    const deliveries = webhookDeliveryJobs({ db, sender, retry: config.webhooks, logger, wakeAt: (when) => jobs.wakeAt(when) });
    jobs.registerBatch(WEBHOOK_JOB, deliveries.run, deliveries.giveUp, {
      batchSize: DELIVERY_BATCH,
      concurrency: DELIVERY_LANES,
      leaseSeconds: deliveryLeaseSeconds(config.webhooks.timeoutMs),
    });
    jobs.start();
    stopPurging = startPurging(db, config.requestRetentionDays, logger);
  }
  return {
    config,
    db,
    people: new PersonLookups(db),
    logger,
    auth: new TokenAuthenticator(db),
    limiter,
    meter,
    pdf,
    pdfLimits,
    metrics,
    overload,
    sessions: new SessionStore(db, config.sessionSecret),
    mailer,
    spool,
    discMaps,
    get model() {
      return model.get();
    },
    get content() {
      return content.get();
    },
    get textPool() {
      return textPool.get();
    },
    textResults: new TextResultCache(),
    descriptions: new DescriptionCache(() => content.get().phrases),
    recommendations: new RecommendationsCache(() => content.get()),
    worker,
    wakeWorker: () => worker?.wake(),
    finishedRequests,
    webhookAddresses,
    async shutdown() {
      stopPurging();
      await finishedRequests.idle();
      await worker?.stop();
      sender?.close();
      await meter.stop();
      await pdf.close();
      overload.close();
      await discMaps.close();
      await textPool.made?.close();
      await mailer.close();
    },
  };
}
