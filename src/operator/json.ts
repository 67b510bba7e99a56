/**
 * The type of a value once it has been through JSON (`JSON.parse(JSON.stringify(value))`): what
 * the CLI holds of a verb's result, whether the verb ran in its own process or answered on the
 * service's admin socket. A `Date` (anything with `toJSON`) becomes what `toJSON` gives, a
 * function or `undefined` field disappears, an `undefined` in an array becomes `null`.
 */
export type Jsonify<T> = unknown extends T
  ? unknown
  : T extends { toJSON(...args: never[]): infer J }
    ? Jsonify<J>
    : T extends string | number | boolean | null
      ? T
      : T extends undefined | symbol | bigint | ((...args: never[]) => unknown)
        ? never
        : T extends readonly (infer E)[]
          ? (undefined extends E ? Jsonify<E> | null : Jsonify<E>)[]
          : T extends object
            ? { [K in keyof T as T[K] extends (...args: never[]) => unknown ? never : K]: Jsonify<T[K]> }
            : never;

/** The value as JSON gives it back: what a result sent over the admin socket becomes. */
export function toJson<T>(value: T): Jsonify<T> {
  return (value === undefined ? null : JSON.parse(JSON.stringify(value))) as Jsonify<T>;
}
