/**
 * Text the database refuses. PostgreSQL (and PGlite, the same server) stores UTF-8: a NUL
 * character cannot be in `text` at all (22021), nor `\u0000` in `jsonb` (22P05), and a lone
 * UTF-16 surrogate (half of a pair, which JavaScript strings may hold and UTF-8 cannot) becomes
 * `\ud800` in JSON, which `jsonb` refuses (22P02). Everything else Unicode has is stored as
 * sent. Inputs are checked against this at the edges (HTTP, operator commands, imported rows),
 * so such text is the caller's mistake, named, rather than the database's 500.
 */

/** Lone surrogates only: with the u flag a well-formed pair is one code point and does not match. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** What in `value` the database would refuse, in a few words, or null when it can be stored. */
export function unstorableText(value: string): string | null {
  if (value.includes('\0')) return 'a NUL character';
  if (LONE_SURROGATE.test(value)) return 'half of a UTF-16 surrogate pair (a broken character)';
  return null;
}

export interface UnstorableText {
  /** Where it is: `texts[0].text`, or '' for `value` itself. */
  path: string;
  /** True when the name of the field at `path` holds it, not its value. */
  inName: boolean;
  problem: string;
}

/** The first string inside `value` (strings, arrays, plain objects, their keys) the database would refuse. */
export function findUnstorableText(value: unknown, path = ''): UnstorableText | null {
  if (typeof value === 'string') {
    const problem = unstorableText(value);
    return problem === null ? null : { path, inName: false, problem };
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findUnstorableText(item, `${path}[${index}]`);
      if (found) return found;
    }
    return null;
  }
  // Plain objects only (parsed JSON, a form): a stream (a PDF upload's body) or a buffer is not text.
  if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      // A key is text too: a JSON object's names are stored with it.
      const at = path === '' ? key : `${path}.${key}`;
      const keyProblem = unstorableText(key);
      if (keyProblem !== null) return { path: at, inName: true, problem: keyProblem };
      const found = findUnstorableText(item, at);
      if (found) return found;
    }
  }
  return null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
