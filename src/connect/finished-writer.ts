import type { Queryable } from '../db/client.ts';
import { insertFinishedRequests, type FinishedRequest } from './requests.ts';

interface Waiting {
  request: FinishedRequest;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Stores the requests the synchronous search answers, many in one INSERT (group commit). On the
 * embedded database one statement is one turn of its single connection, and a row alone cost
 * about nine times its share of a 25-row statement; under load every sync search paid it while
 * fifty others waited.
 *
 * Rows wait for the end of the current turn of the event loop (setImmediate), so every search
 * that finished in that turn goes in the same statement; a lone search waits for nothing else.
 * Each caller's promise settles only once its row is committed, so an answer is never sent for
 * a request that a crash would lose. When a batch fails, its rows are tried again one by one:
 * a row the database refuses fails only its own request, with the database's error.
 */
export class FinishedRequestWriter {
  private queue: Waiting[] = [];
  private scheduled = false;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Queryable,
    private readonly maxBatch = 200,
  ) {}

  /** Resolves once the row is committed; rejects with the database's error if it cannot be. */
  write(request: FinishedRequest): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        // One batch after another: rows that come while one is written make the next batch.
        this.writing = this.writing.then(() => this.drain());
      });
    });
  }

  /** Settles once every row handed over so far is written or has failed (shutdown). */
  async idle(): Promise<void> {
    while (this.scheduled || this.queue.length > 0) await new Promise((resolve) => setImmediate(resolve));
    await this.writing;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        await insertFinishedRequests(
          this.db,
          batch.map((w) => w.request),
        );
        for (const waiting of batch) waiting.resolve();
      } catch (error) {
        if (batch.length === 1) batch[0]?.reject(error);
        else await this.oneByOne(batch);
      }
    }
  }

  private async oneByOne(batch: readonly Waiting[]): Promise<void> {
    for (const waiting of batch) {
      try {
        await insertFinishedRequests(this.db, [waiting.request]);
        waiting.resolve();
      } catch (error) {
        waiting.reject(error);
      }
    }
  }
}
