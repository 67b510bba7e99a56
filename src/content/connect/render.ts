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

/** A template split once into its literal text and its `{key}` slots, for filling many times. */
interface Compiled {
  parts: { literal: string; key: string | null; raw: string; startsSentence: boolean | null }[];
  tail: string;
  bold: boolean;
}

const compiled = new Map<string, Compiled>();
const COMPILED_MAX = 20_000;

function compile(template: string): Compiled {
  let found = compiled.get(template);
  if (found) return found;
  const parts: Compiled['parts'] = [];
  let last = 0;
  for (const match of template.matchAll(/\{([A-Za-z]+)\}/g)) {
    const literal = template.slice(last, match.index);
    // Whether the slot opens a sentence follows from the text before it, unless that is only
    // blank (the slot follows another): then it is decided when filling.
    const startsSentence = literal.replace(/\*\*|<br>/g, ' ').trim() === '' && !/<br>\s*$/.test(literal) ? null : atSentenceStart(template.slice(0, match.index));
    parts.push({ literal, key: match[1] ?? '', raw: match[0], startsSentence });
    last = match.index + match[0].length;
  }
  found = { parts, tail: template.slice(last), bold: template.includes('**') };
  if (compiled.size >= COMPILED_MAX) compiled.clear();
  compiled.set(template, found);
  return found;
}

/**
 * Replaces each `{key}` by its slot (unknown keys are left as they are: the libraries are
 * validated so that cannot happen) and turns `**x**` into <b>x</b>.
 */
export function fillTemplate(template: string, slots: Readonly<Record<string, NameSlot>>): string {
  const { parts, tail, bold } = compile(template);
  let out = '';
  for (const { literal, key, raw, startsSentence } of parts) {
    out += literal;
    const slot = key === null ? undefined : slots[key];
    if (slot === undefined) out += raw;
    else if (slot.fallback && (startsSentence ?? atSentenceStart(out))) out += slot.html.charAt(0).toUpperCase() + slot.html.slice(1);
    else out += slot.html;
  }
  out += tail;
  return bold ? out.replace(/\*\*(.+?)\*\*/gs, '<b>$1</b>').replaceAll('**', '') : out;
}
