import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client.ts';
import { statement } from '../../src/db/client.ts';
import { openEmbeddedCopy } from '../helpers/db.ts';

/** Turns of the event loop (setImmediate callbacks) while `work` runs, and the wall time between them. */
async function turnsDuring(work: Promise<unknown>): Promise<{ turns: number; medianGapMs: number }> {
  const gaps: number[] = [];
  let last = performance.now();
  let done = false;
  const tick = () => {
    if (done) return;
    const now = performance.now();
    gaps.push(now - last);
    last = now;
    setImmediate(tick);
  };
  setImmediate(tick);
  await work;
  done = true;
  gaps.sort((a, b) => a - b);
  return { turns: gaps.length, medianGapMs: gaps[Math.floor(gaps.length / 2)] ?? Infinity };
}

describe('the embedded database and the event loop', () => {
  let db: Db;
  let remove = () => {};
  beforeAll(async () => {
    // The embedded database itself (what is tested, on PostgreSQL runs too), on a copy of the
    // migrated one rather than a new in-memory one where the run has one (initdb: ~4 s of CPU more).
    ({ db, remove } = await openEmbeddedCopy());
  });
  afterAll(async () => {
    await db.close();
    remove();
  });

  it('lets the event loop turn while a queue of statements runs (a few ms of database work a turn)', async () => {
    // 1,000 callers at once: PGlite would run them back to back, resumed by promise callbacks only.
    const queued = Promise.all(Array.from({ length: 1000 }, (_, i) => db.query('SELECT $1::int AS n', [i])));
    const { turns, medianGapMs } = await turnsDuring(queued);
    // The queue is cut into turns of ~4 ms of statements: a typical turn (the median, which a
    // process set aside by a busy machine now and then does not move) is a few milliseconds, not
    // the whole queue's work.
    expect(turns).toBeGreaterThan(3);
    expect(medianGapMs).toBeLessThan(20);
  });

  it('does the same for prepared statements and inside transactions', async () => {
    const count = statement('turns_count', 'SELECT count(*)::int AS n FROM generate_series(1, $1::int)');
    const prepared = Promise.all(Array.from({ length: 300 }, () => db.run(count, [50])));
    expect((await turnsDuring(prepared)).turns).toBeGreaterThan(3);
    const inOne = db.transaction(async (tx) => {
      for (let i = 0; i < 300; i += 1) await tx.query('SELECT $1::int AS n', [i]);
    });
    expect((await turnsDuring(inOne)).turns).toBeGreaterThan(3);
  });

  it('answers a health ping at once while busy answering others, at the next answer when a queue has just arrived, asks the database when idle, and fails once closed', async () => {
    await db.query('SELECT 1');
    // A transaction holds the database; a ping need not wait for it: the database just answered.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.transaction(async (tx) => {
      await tx.query('SELECT 1');
      await held;
    });
    let pinged = false;
    await db.ping().then(() => (pinged = true));
    expect(pinged).toBe(true);
    release();
    await transaction;

    const { db: own, remove: removeOwn } = await openEmbeddedCopy();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await expect(own.ping()).resolves.toBeUndefined();

    // Idle for a while, then a queue arrives: the ping waits for the database's next answer,
    // to anyone, not for its own turn at the end of the queue.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    let answered = 0;
    const queue = Promise.all(Array.from({ length: 300 }, (_, i) => own.query('SELECT $1::int AS n', [i]).then(() => (answered += 1))));
    await own.ping();
    expect(answered).toBeLessThan(30);
    await queue;
    expect(answered).toBe(300);
    await own.close();
    removeOwn();
    await expect(own.ping()).rejects.toThrow(/closed/);
  });
});
