/**
 * A value made the first time it is read and kept from then on. For parts of the context that
 * some processes never need: a CLI command such as `rapport tokens list` has no use for the text
 * model or the content, which cost about a second of CPU to load.
 */
export interface OnFirstUse<T> {
  /** The value, made now if this is the first read; a failure to make it is thrown to each reader. */
  get(): T;
  /** The value if it has been made, without making it (to close what was opened, say). */
  readonly made: T | undefined;
}

export function onFirstUse<T>(make: () => T): OnFirstUse<T> {
  let made: { value: T } | undefined;
  return {
    get() {
      made ??= { value: make() };
      return made.value;
    },
    get made() {
      return made?.value;
    },
  };
}
