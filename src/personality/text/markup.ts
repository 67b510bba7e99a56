import { emailFinder, replaceAll, type Finder } from './matches.ts';
import { tokenize, type TokenizedText } from './tokenizer.ts';

/**
 * Removes what is not prose before the text is read: HTML (with script and style
 * bodies), character entities, fenced code, URLs and e-mail addresses. Each is one
 * pass over the whole text, never one per word, and linear in its length whatever its
 * shape: a pattern that would rescan the rest of the text from every candidate start
 * (an unclosed `<!--`, `<script` without its end tag, a long run of letters before an
 * `@`) is found with indexOf and runs scanned once (matches.ts).
 */

const BLOCK_TAG = /<\/?(p|div|br|li|ul|ol|h[1-6]|tr|td|th|table|section|article|header|footer|blockquote)\b[^>]*>/gi;
const ANY_TAG = /<\/?[a-zA-Z][^<>]*>/g;
const ENTITY = /&(#\d+|#x[0-9a-f]+|[a-z]+);/gi;
const FENCED_CODE = /```[\s\S]*?```/g;
const URL = /\b(?:https?:\/\/|www\.)\S+/gi;

const NAMED_ENTITIES: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: ' ', gt: ' ', nbsp: ' ', mdash: '—', ndash: '–', rsquo: '’', lsquo: '‘', hellip: '…' };

/**
 * `/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi`: an opening tag, up to the first `>`, then
 * up to the first closing tag of the same name. Where no `>` or no closing tag follows a
 * position, none follows any later one either, so each is looked for once per text.
 */
function scriptOrStyleFinder(): Finder {
  const opening = /<(script|style)\b/gi;
  const closings: Record<string, RegExp> = { script: /<\/script\s*>/gi, style: /<\/style\s*>/gi };
  /** Per name: the closing tag found from some position (−1: none from there on). */
  const closingFound = new Map<string, { from: number; at: number; end: number }>();
  let gtFrom = -1;
  let gtAt = -1;
  const nextGt = (text: string, from: number): number => {
    if (gtFrom < 0 || from < gtFrom || (gtAt >= 0 && from > gtAt)) {
      gtFrom = from;
      gtAt = text.indexOf('>', from);
    }
    return gtAt;
  };
  const nextClosing = (text: string, name: string, from: number): { at: number; end: number } | null => {
    let found = closingFound.get(name);
    if (found === undefined || from < found.from || (found.at >= 0 && from > found.at)) {
      const closing = closings[name];
      if (closing === undefined) return null;
      closing.lastIndex = from;
      const match = closing.exec(text);
      found = { from, at: match === null ? -1 : match.index, end: match === null ? -1 : match.index + match[0].length };
      closingFound.set(name, found);
    }
    return found.at < 0 ? null : found;
  };
  return (text, from) => {
    opening.lastIndex = from;
    for (let match = opening.exec(text); match !== null; match = opening.exec(text)) {
      const gt = nextGt(text, match.index + match[0].length);
      if (gt < 0) return null;
      const closing = nextClosing(text, (match[1] ?? '').toLowerCase(), gt + 1);
      if (closing !== null) return { start: match.index, end: closing.end };
      opening.lastIndex = match.index + 1;
    }
    return null;
  };
}

/** `/<!--[\s\S]*?-->/g`: with no `-->` after an opening, there is none after a later one. */
const htmlCommentFinder: Finder = (text, from) => {
  const start = text.indexOf('<!--', from);
  if (start < 0) return null;
  const close = text.indexOf('-->', start + 4);
  return close < 0 ? null : { start, end: close + 3 };
};

/** A tag can only match up to a `>`: past the last one, every candidate would fail after scanning to the end. */
function replaceBlockTags(text: string): string {
  const lastGt = text.lastIndexOf('>');
  if (lastGt < 0) return text;
  return text.slice(0, lastGt + 1).replace(BLOCK_TAG, '\n') + text.slice(lastGt + 1);
}

export function stripMarkup(text: string): string {
  if (!/[<&`@]|www\.|https?:/i.test(text)) return text;
  let stripped = replaceAll(text, scriptOrStyleFinder(), ' ');
  stripped = replaceAll(stripped, htmlCommentFinder, ' ').replace(FENCED_CODE, ' ');
  stripped = replaceBlockTags(stripped)
    .replace(ANY_TAG, ' ')
    .replace(ENTITY, (_, name: string) => NAMED_ENTITIES[name.toLowerCase()] ?? ' ')
    .replace(URL, ' ');
  return replaceAll(stripped, emailFinder(), ' ');
}

/** The one way text becomes tokens, shared by analysis and training so both read alike. */
export function tokenizeProse(text: string): TokenizedText {
  return tokenize(stripMarkup(text));
}
