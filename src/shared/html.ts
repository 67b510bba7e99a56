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

/** Anything escapeHtml changes: most strings (a profile's phrases, names) hold none of it. */
const NEEDS_ESCAPING = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F&<>"']/;

/** Escapes &, <, >, " and ' so a string is inert in text and in quoted attributes. */
export function escapeHtml(value: string): string {
  const text = String(value);
  // One scan and no new string for text with nothing to escape (a C2 answer escapes ~60 phrases).
  if (!NEEDS_ESCAPING.test(text)) return text;
  // Control characters other than tab/newline are invalid in XML and useless in HTML.
  const cleaned = text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '');
  return cleaned.replace(/[&<>"']/g, (ch) => ENTITIES[ch] ?? ch);
}

/** XML needs exactly the same five escapes. */
export const escapeXml = escapeHtml;
