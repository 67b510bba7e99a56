import { describe, expect, it } from 'vitest';
import { TurnBudget } from '../../src/db/turn-budget.ts';

/** Holds the thread for `ms` of wall time, as a synchronous PGlite statement does. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('the embedded database turn budget', () => {
  it('gives the database about 1 ms of a turn: a queue of 0.6 ms statements runs at most two a turn, in the order asked', async () => {
    const budget = new TurnBudget();
    let turn = 0;
    let done = false;
    const tick = () => {
      if (done) return;
      turn += 1;
      setImmediate(tick);
    };
    setImmediate(tick);
    const turns: number[] = [];
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        budget.run(async () => {
          busyFor(0.6);
          turns.push(turn);
          order.push(i);
        }),
      ),
    );
    done = true;
    const perTurn = new Map<number, number>();
    for (const t of turns) perTurn.set(t, (perTurn.get(t) ?? 0) + 1);
    // A second statement starts only while the turn has had less than 1 ms (0.6 ms after the
    // first): never a third. A slower machine only ends turns sooner. With 4 ms it was six.
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(2);
    expect(perTurn.size).toBeGreaterThanOrEqual(15);
    expect(order).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });
});
