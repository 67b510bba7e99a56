import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbedded } from '../../src/db/embedded.ts';
import type { Db } from '../../src/db/client.ts';
import { statement } from '../../src/db/client.ts';

/** Turns of the event loop (setImmediate callbacks) while `work` runs. */
async function turnsDuring(work: Promise<unknown>): Promise<number> {
  let turns = 0;
  let done = false;
  const tick = () => {
    if (done) return;
    turns += 1;
    setImmediate(tick);
  };
  setImmediate(tick);
  await work;
  done = true;
  return turns;
}

describe('the embedded database and the event loop', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openEmbedded();
  });
  afterAll(() => db.close());

  it('lets the event loop turn while a queue of statements runs (a few ms of database work a turn)', async () => {
    const cpuBefore = process.cpuUsage();
    // 1,000 callers at once: PGlite would run them back to back, resumed by promise callbacks only.
    const queued = Promise.all(Array.from({ length: 1000 }, (_, i) => db.query('SELECT $1::int AS n', [i])));
    const turns = await turnsDuring(queued);
    // CPU time, not wall time: a process the machine sets aside for a while has not worked then.
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    // At most ~4 ms of statements per turn: at least one turn per 10 ms of the whole queue's work.
    expect(turns).toBeGreaterThanOrEqual(Math.floor(cpuMs / 10));
    expect(turns).toBeGreaterThan(3);
  });

  it('does the same for prepared statements and inside transactions', async () => {
    const count = statement('turns_count', 'SELECT count(*)::int AS n FROM generate_series(1, $1::int)');
    const prepared = Promise.all(Array.from({ length: 300 }, () => db.run(count, [50])));
    expect(await turnsDuring(prepared)).toBeGreaterThan(3);
    const inOne = db.transaction(async (tx) => {
      for (let i = 0; i < 300; i += 1) await tx.query('SELECT $1::int AS n', [i]);
    });
    expect(await turnsDuring(inOne)).toBeGreaterThan(3);
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

    const own = await openEmbedded();
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
    await expect(own.ping()).rejects.toThrow(/closed/);
  });
});
