/**
 * Filling the Connect templates. Templates are our own trusted prose (checked at load: the
 * only markup is <br> and **bold** markers); names come from users and are escaped before
 * they go in, so the result is safe HTML whatever the name holds.
 */
import type { PartyView } from '../party.ts';

/** A name for the template: the escaped first name, or a neutral phrase (lower case). */
export interface NameSlot {
  html: string;
  /** True when the slot is a fallback phrase that must be capitalised at a sentence start. */
  fallback: boolean;
}

export function nameSlot(view: PartyView, fallback: string): NameSlot {
  return view.htmlName === null ? { html: fallback, fallback: true } : { html: view.htmlName, fallback: false };
}

/** After a full stop, a line break or nothing; not after a colon ("differ on pace: the first Daniel is…"). */
function atSentenceStart(before: string): boolean {
  if (/<br>\s*$/.test(before)) return true;
  const plain = before.replace(/\*\*|<br>/g, ' ').trimEnd();
  return plain === '' || /[.!?]["')\]]?$/.test(plain);
}

/**
 * Replaces each `{key}` by its slot (unknown keys are left as they are: the libraries are
 * validated so that cannot happen) and turns `**x**` into <b>x</b>.
 */
export function fillTemplate(template: string, slots: Readonly<Record<string, NameSlot>>): string {
  let out = '';
  let last = 0;
  for (const match of template.matchAll(/\{([A-Za-z]+)\}/g)) {
    const index = match.index;
    out += template.slice(last, index);
    const slot = slots[match[1] ?? ''];
    if (slot === undefined) out += match[0];
    else if (slot.fallback && atSentenceStart(out)) out += slot.html.charAt(0).toUpperCase() + slot.html.slice(1);
    else out += slot.html;
    last = index + match[0].length;
  }
  out += template.slice(last);
  return out.replace(/\*\*(.+?)\*\*/gs, '<b>$1</b>').replaceAll('**', '');
}
