import type { ConnectDeps } from '../../connect/profile-search.ts';
import type { AppContext } from '../../context.ts';

export function connectDeps(ctx: AppContext): ConnectDeps {
  return { db: ctx.db, wakeWorker: ctx.wakeWorker, syncTimeoutMs: ctx.config.syncTimeoutMs, text: ctx.textPool, finished: ctx.finishedRequests };
}
