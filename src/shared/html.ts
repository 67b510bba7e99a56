/**
 * Escaping for everything Rapport writes into HTML or SVG (docs/architecture.md, "Content as data": names and user text
 * never become markup). The same escaping is valid for text content and quoted attributes in
 * both HTML5 and XML.
 */

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes &, <, >, " and ' so a string is inert in text and in quoted attributes. */
export function escapeHtml(value: string): string {
  // Control characters other than tab/newline are invalid in XML and useless in HTML.
  const cleaned = String(value).replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '');
  return cleaned.replace(/[&<>"']/g, (ch) => ENTITIES[ch] ?? ch);
}

/** XML needs exactly the same five escapes. */
export const escapeXml = escapeHtml;
