import { isRegExpSpace as isSpace } from './matches.ts';

/**
 * Offsets of a phrase of the text as read (labels, markup and boilerplate removed: labelled.ts,
 * markup.ts) in the text as sent, so evidence can point at the caller's own characters. The
 * reader only deletes text and folds runs of spaces, so the n-th occurrence of a phrase in the
 * text as read is looked for as the n-th in the text as sent (spaces matching any run of
 * white space); a phrase that cannot be found there gets no offsets.
 */

/** End of `words` joined by runs of white space read at `at`, or -1 when they are not there. */
function matchAt(text: string, words: readonly string[], at: number): number {
  let position = at + (words[0] ?? '').length;
  for (let k = 1; k < words.length; k++) {
    const spacesFrom = position;
    while (position < text.length && isSpace(text.charCodeAt(position))) position++;
    const word = words[k] ?? '';
    if (position === spacesFrom || !text.startsWith(word, position)) return -1;
    position += word.length;
  }
  return position;
}

/**
 * The matches of `/w1\s+w2\s+…/g` over the text, left to right and not overlapping, found by
 * searching for the first word rather than by compiling a regular expression per phrase (which
 * cost more than the search). A word holds no white space, so `\s+` always takes a whole run.
 */
function occurrencesOf(words: readonly string[], text: string): Array<{ start: number; end: number }> {
  const found: Array<{ start: number; end: number }> = [];
  const first = words[0] ?? '';
  let from = 0;
  for (let at = text.indexOf(first, from); at >= 0; at = text.indexOf(first, from)) {
    const end = matchAt(text, words, at);
    if (end < 0) {
      from = at + 1;
      continue;
    }
    found.push({ start: at, end });
    from = end;
  }
  return found;
}

export function spanLocator(read: string, sent: string): (start: number, end: number) => { start: number; end: number } | null {
  if (read === sent) return (start, end) => ({ start, end });
  const cache = new Map<string, Array<{ start: number; end: number }>>();
  const occurrences = (phrase: string, inSent: boolean): Array<{ start: number; end: number }> => {
    const key = `${inSent ? 's' : 'r'}:${phrase}`;
    const known = cache.get(key);
    if (known !== undefined) return known;
    const found = occurrencesOf(phrase.trim().split(/\s+/), inSent ? sent : read);
    cache.set(key, found);
    return found;
  };
  return (start, end) => {
    const phrase = read.slice(start, end);
    if (phrase.trim() === '') return null;
    const nth = occurrences(phrase, false).findIndex((o) => o.start === start);
    const inSent = occurrences(phrase, true);
    return inSent[Math.max(nth, 0)] ?? inSent[0] ?? null;
  };
}
