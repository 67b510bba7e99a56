/**
 * Exact, linear-time stand-ins for the few patterns whose regular-expression form
 * backtracks quadratically. A pattern such as `[\w.+-]+@…` is retried by the regex engine
 * at every position of a long run of word characters, each retry scanning to the run's end
 * before failing: 100,000 letters cost tens of seconds. Here each run is scanned once and
 * judged once, since every start inside a run reaches the same end and meets the same
 * continuation there. The results are those of `text.replace(pattern, replacement)` with
 * the original pattern (test/personality/text/linear-equivalence.test.ts checks it).
 */

/** A match of one pattern: [start, end) in UTF-16 code units. */
export interface Span {
  start: number;
  end: number;
}

/** The leftmost match starting at `from` or later, or null when there is none. */
export type Finder = (text: string, from: number) => Span | null;

/**
 * Remembers a finder's last answer. A match at a position depends only on the text, not on
 * where the search began, so the leftmost match found from `f` is still the leftmost from
 * any later position up to its start, and "none from `f`" stays true for every later
 * position. Without this, a search restarted after every match of another pattern would
 * scan the same tail again and again. A cached finder serves one text: make one per call.
 */
export function cached(find: Finder): Finder {
  let searchedFrom = -1;
  let answer: Span | null = null;
  return (text, from) => {
    if (searchedFrom < 0 || from < searchedFrom || (answer !== null && from > answer.start)) {
      searchedFrom = from;
      answer = find(text, from);
    }
    return answer;
  };
}

/** The leftmost match of any finder; on a tie the earlier finder wins, as in `a|b`. */
export function firstOf(...finders: Finder[]): Finder {
  return (text, from) => {
    let best: Span | null = null;
    for (const find of finders) {
      const span = find(text, from);
      if (span !== null && (best === null || span.start < best.start)) best = span;
    }
    return best;
  };
}

/** Like `text.replace(globalPattern, replacement)` for a finder of non-empty matches. */
export function replaceAll(text: string, find: Finder, replacement: string): string {
  const parts: string[] = [];
  let kept = 0;
  let from = 0;
  for (;;) {
    const span = find(text, from);
    if (span === null) break;
    parts.push(text.slice(kept, span.start), replacement);
    kept = span.end;
    from = span.end > span.start ? span.end : span.end + 1;
  }
  if (kept === 0) return text;
  parts.push(text.slice(kept));
  return parts.join('');
}

/** A finder from a global or sticky-free regular expression that is linear on its own. */
export function regexFinder(pattern: RegExp): Finder {
  const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  return (text, from) => {
    global.lastIndex = from;
    const match = global.exec(text);
    return match === null ? null : { start: match.index, end: match.index + match[0].length };
  };
}

/** `\w` without the u flag. */
function isWordCode(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

function isWordAt(text: string, index: number): boolean {
  return index >= 0 && index < text.length && isWordCode(text.charCodeAt(index));
}

/**
 * Matches of `run+ rest`, where `run` is a character class and `rest` a sticky expression
 * that cannot start with a character of the class, so `run+` always ends where the run
 * ends. `startsAt` adds a condition on the start (such as `\b`).
 */
export function runThenFinder(inRun: (code: number) => boolean, rest: RegExp, startsAt: (text: string, index: number) => boolean = () => true): Finder {
  const sticky = new RegExp(rest.source, rest.flags.includes('y') ? rest.flags : `${rest.flags}y`);
  return (text, from) => {
    const length = text.length;
    let index = from;
    while (index < length) {
      while (index < length && !inRun(text.charCodeAt(index))) index++;
      if (index === length) return null;
      let end = index;
      while (end < length && inRun(text.charCodeAt(end))) end++;
      // The start first: `rest` may run to the end of the line (`\/\S*`), so trying it after a
      // run that cannot start a match made text like "<!--.io/" repeated cost time quadratic in its length.
      let start = index;
      while (start < end && !startsAt(text, start)) start++;
      if (start < end) {
        sticky.lastIndex = end;
        if (sticky.test(text)) return { start, end: sticky.lastIndex };
      }
      index = end;
    }
    return null;
  };
}

/** `[\w.+-]` */
function isEmailLocalCode(code: number): boolean {
  return isWordCode(code) || code === 46 || code === 43 || code === 45;
}

/** `[\w-]` */
function isHostCode(code: number): boolean {
  return isWordCode(code) || code === 45;
}

/** `\b` without the u flag. */
export function wordBoundaryAt(text: string, index: number): boolean {
  return isWordAt(text, index - 1) !== isWordAt(text, index);
}

/** An e-mail address: `/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g`. */
export function emailFinder(): Finder {
  return runThenFinder(isEmailLocalCode, /@[\w-]+(?:\.[\w-]+)+/);
}

/** A bare domain with a common ending: `/\b[\w-]+\.(?:com|org|net|io|dev|me|co|ai)(?:\/\S*)?\b/gi`. */
export function bareDomainFinder(): Finder {
  return runThenFinder(isHostCode, /\.(?:com|org|net|io|dev|me|co|ai)(?:\/\S*)?\b/i, wordBoundaryAt);
}

/** `\s` of a regular expression (and what String.prototype.trim removes). */
export function isRegExpSpace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 ||
    code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff
  );
}

/** `text.trim().split(/\s+/).length` for a text holding more than white space, 0 for one that does not, without building the words. */
export function countWords(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = isRegExpSpace(text.charCodeAt(i));
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}
