/**
 * Offsets of a phrase of the text as read (labels, markup and boilerplate removed: labelled.ts,
 * markup.ts) in the text as sent, so evidence can point at the caller's own characters. The
 * reader only deletes text and folds runs of spaces, so the n-th occurrence of a phrase in the
 * text as read is looked for as the n-th in the text as sent (spaces matching any run of
 * white space); a phrase that cannot be found there gets no offsets.
 */
export function spanLocator(read: string, sent: string): (start: number, end: number) => { start: number; end: number } | null {
  if (read === sent) return (start, end) => ({ start, end });
  const cache = new Map<string, Array<{ start: number; end: number }>>();
  const occurrences = (phrase: string, text: string): Array<{ start: number; end: number }> => {
    const key = `${text === sent ? 's' : 'r'}:${phrase}`;
    const known = cache.get(key);
    if (known !== undefined) return known;
    const pattern = new RegExp(
      phrase
        .trim()
        .split(/\s+/)
        .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('\\s+'),
      'g',
    );
    const found: Array<{ start: number; end: number }> = [];
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      found.push({ start: match.index, end: match.index + match[0].length });
      if (match[0].length === 0) pattern.lastIndex++;
    }
    cache.set(key, found);
    return found;
  };
  return (start, end) => {
    const phrase = read.slice(start, end);
    if (phrase.trim() === '') return null;
    const nth = occurrences(phrase, read).findIndex((o) => o.start === start);
    const inSent = occurrences(phrase, sent);
    return inSent[Math.max(nth, 0)] ?? inSent[0] ?? null;
  };
}
