/**
 * Database work on the embedded database, one caller at a time, giving the event loop a turn
 * every few milliseconds.
 *
 * PGlite runs each statement synchronously on this thread, and callers waiting for its lock are
 * resumed by promise callbacks, which run before the event loop turns. So a queue of database
 * work ran back to back without a break: twenty uploads arriving together held the loop for
 * 50–80 ms with their admission transactions, and nothing else (a health check, a page, a
 * cached map) was read or answered meanwhile. Here callers queue in order (`run`), and before
 * each statement (`spend`, also inside transactions) the work checks how long the current turn
 * has given the database: past `budgetMs`, it waits for the next turn. A statement alone is not
 * cut short: most cost 0.3–3 ms.
 *
 * The budget is 1 ms (4 ms until the twelfth session). libuv accepts one new connection per turn
 * of the loop (Node 20's libuv 1.46 has no accept loop), so under load a client's new connection
 * waits for as many turns as there are connections ahead of it: fifty opened at once into a busy
 * name search waited up to 350–480 ms with 4 ms turns, ~130–230 ms with 1 ms ones, and a queue
 * of 20,000 small statements costs no more CPU cut into 1 ms turns (docs/benchmarks.md,
 * twelfth session).
 */
export class TurnBudget {
  private turnStartedAt: number | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  constructor(private readonly budgetMs = 1) {}

  /** Callers queued or at work: while there are any, the database has work ahead of a newcomer. */
  get queued(): number {
    return this.waiting;
  }

  /** Runs `work` after the callers before it, once this turn has budget left. */
  run<T>(work: () => Promise<T>): Promise<T> {
    this.waiting += 1;
    const result = this.tail
      .then(async () => {
        await this.spend();
        return work();
      })
      .finally(() => {
        this.waiting -= 1;
      });
    // The next caller waits for this one to end, whether it succeeded or not.
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Before a statement: returns at once while the turn has budget left, else after the next turn. */
  async spend(): Promise<void> {
    const now = performance.now();
    if (this.turnStartedAt === null) {
      this.start(now);
      return;
    }
    if (now - this.turnStartedAt < this.budgetMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.start(performance.now());
  }

  private start(now: number): void {
    this.turnStartedAt = now;
    // Runs once this turn's callbacks are done: the next statement starts a new turn's budget.
    setImmediate(() => {
      this.turnStartedAt = null;
    });
  }
}
