import { afterAll, beforeAll } from 'vitest';

export interface Fixture<T> {
  /** The value; throws (with the fixture's `notYet`) outside tests and hooks, before it is made. */
  current(): T;
  /** The value, handed over: the caller closes it, and the afterAll here has nothing left to close. */
  take(): T;
}

/**
 * A value for the tests of the file or describe block this is called in: made in a beforeAll
 * registered here, so before the block's own hooks (which may use it), and closed after its own
 * afterAll hooks. It does not exist yet while the file is collected: `current()` says so with
 * `notYet` rather than handing out undefined.
 */
export function useFixture<T>(notYet: string, make: () => Promise<T>, close: (value: T) => Promise<void> = async () => undefined): Fixture<T> {
  let made: T | undefined;
  const current = (): T => {
    if (made === undefined) throw new Error(notYet);
    return made;
  };
  beforeAll(async () => {
    made = await make();
  });
  afterAll(async () => {
    const left = made;
    made = undefined;
    if (left !== undefined) await close(left);
  });
  return {
    current,
    take() {
      const value = current();
      made = undefined;
      return value;
    },
  };
}
