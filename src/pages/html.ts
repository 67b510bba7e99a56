/**
 * Escaping for everything Rapport writes into HTML or SVG (docs/architecture.md, "Content as data": names and user text
 * never become markup). The same escaping is valid for text content and quoted attributes in
 * both HTML5 and XML.
 */

export { escapeHtml, escapeXml } from '../shared/html.ts';

/**
 * Returns the URL, normalised, only if it is an absolute http(s) URL; anything else
 * (javascript:, data:, relative paths, junk) gives null so callers can leave it out.
 * With allowRootRelative, a same-origin path such as "/images/x.svg" is accepted too
 * (never "//host", which is protocol-relative and leaves the origin).
 */
export function safeHttpUrl(value: string | null | undefined, options: { allowRootRelative?: boolean } = {}): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const trimmed = value.trim();
  if (options.allowRootRelative === true && /^\/(?![/\\])/.test(trimmed)) {
    // Resolve against a dummy origin only to normalise and percent-encode the path.
    const url = new URL(trimmed, 'http://rapport.invalid');
    return url.origin === 'http://rapport.invalid' ? `${url.pathname}${url.search}${url.hash}` : null;
  }
  try {
    const url = new URL(trimmed);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
