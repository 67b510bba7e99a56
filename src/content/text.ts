import { escapeHtml } from '../shared/html.ts';
/**
 * Turning phrase templates into text: the `{first}` placeholder, the `**bold**` markers,
 * and the HTML form. Names come from users and imported data, so they are treated as
 * untrusted text everywhere here (docs/architecture.md, "Content as data").
 */

const PLACEHOLDER = '{first}';
const FALLBACK = 'this person';
const FALLBACK_CAPITALISED = 'This person';

/**
 * A usable first name, or null. Asterisks and braces are dropped because they are the
 * template's own syntax: a name like "A**b" would otherwise open a bold run in the HTML form.
 */
export function cleanFirstName(name: string | null | undefined): string | null {
  if (typeof name !== 'string') return null;
  const cleaned = name.replace(/[*{}]/g, '').replace(/\s+/g, ' ').trim();
  return cleaned === '' ? null : cleaned;
}

/** True when the text before a placeholder ends a sentence (or is empty). */
function atSentenceStart(before: string): boolean {
  const plain = before.replaceAll('**', '').trimEnd();
  return plain === '' || /[.!?]["')\]]?$/.test(plain);
}

/**
 * Fills `{first}`; without a name the neutral "this person" is used, capitalised where it
 * opens a sentence. Markers are kept so callers can choose plain text or HTML afterwards.
 */
export function personalize(template: string, firstName: string | null): string {
  const parts = template.split(PLACEHOLDER);
  let out = parts[0] ?? '';
  for (let i = 1; i < parts.length; i++) {
    const name = firstName ?? (atSentenceStart(out) ? FALLBACK_CAPITALISED : FALLBACK);
    out += name + (parts[i] ?? '');
  }
  return out;
}

/** Plain text: the emphasis markers removed. */
export function stripMarkers(text: string): string {
  return text.replaceAll('**', '');
}

/**
 * Inline HTML for the places the contract allows it: everything is escaped first, so a
 * name or user text can never become markup, and only then do `**x**` pairs become <b>x</b>.
 * An unpaired marker left over is dropped rather than shown.
 */
export function toInlineHtml(text: string): string {
  return escapeHtml(text)
    .replace(/\*\*(.+?)\*\*/gs, '<b>$1</b>')
    .replaceAll('**', '');
}
