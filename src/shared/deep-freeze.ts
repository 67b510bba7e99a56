/**
 * Freezes a value and everything in it, so an object served to many callers from a cache cannot
 * be changed by one of them for the others (a change throws in strict mode, as all our code is).
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
