/** The regular-expression stripMarkup as it was before the linear-time rewrite: the reference its results must equal. */
/**
 * Removes what is not prose before the text is read: HTML (with script and style
 * bodies), character entities, fenced code, URLs and e-mail addresses. Each is one
 * regular-expression pass over the whole text, never one per word.
 */

const SCRIPT_OR_STYLE = /<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const HTML_COMMENT = /<!--[\s\S]*?-->/g;
const BLOCK_TAG = /<\/?(p|div|br|li|ul|ol|h[1-6]|tr|td|th|table|section|article|header|footer|blockquote)\b[^>]*>/gi;
const ANY_TAG = /<\/?[a-zA-Z][^<>]*>/g;
const ENTITY = /&(#\d+|#x[0-9a-f]+|[a-z]+);/gi;
const FENCED_CODE = /```[\s\S]*?```/g;
const URL = /\b(?:https?:\/\/|www\.)\S+/gi;
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;

const NAMED_ENTITIES: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: ' ', gt: ' ', nbsp: ' ', mdash: '—', ndash: '–', rsquo: '’', lsquo: '‘', hellip: '…' };

export function stripMarkup(text: string): string {
  if (!/[<&`@]|www\.|https?:/i.test(text)) return text;
  return text
    .replace(SCRIPT_OR_STYLE, ' ')
    .replace(HTML_COMMENT, ' ')
    .replace(FENCED_CODE, ' ')
    .replace(BLOCK_TAG, '\n')
    .replace(ANY_TAG, ' ')
    .replace(ENTITY, (_, name: string) => NAMED_ENTITIES[name.toLowerCase()] ?? ' ')
    .replace(URL, ' ')
    .replace(EMAIL, ' ');
}
