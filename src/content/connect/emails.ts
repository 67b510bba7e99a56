/**
 * C5: sample emails written for the recipient's style. Six situations, each in five
 * variants (D, I, S, C, and B for a balanced blend near the centre of the circle), from
 * src/content/emails/templates.json. `description` is HTML paragraphs written for that
 * situation and that reader (no paragraph is shared between situations: six emails carrying
 * the same style paragraph read as machine-made), `text` the body with <br> line breaks: the
 * recipient's escaped first name in the greeting and SENDER_NAME_PLACEHOLDER where the
 * sender signs.
 *
 * A reader whose placement is tentative (thin evidence, as their own profile reads it) is not
 * described as fact: each tip that says how the reader takes an email has a tentative wording
 * (hedged.ts), and the first email's description ends its tips with a note that they are
 * tentative (`notes.tentative`), as the reader's profile opens with one. The emails themselves
 * are not hedged: they are written to suit the reader, in the variant their point gives. The
 * note on the sender's own habit is hedged for whichever of the two is tentative.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { escapeHtml } from '../../shared/html.ts';
import { viewParty, type Party, type PartyView, type Style } from '../party.ts';
import { STYLES, templateProblems } from '../relationship/library.ts';
import { hedgedPairProblems, hedgedProblems, hedgedText, pairText, type Hedged, type HedgedPair } from './hedged.ts';
import { fillTemplate, nameSlot } from './render.ts';
import { isRecord } from '../../shared/records.ts';

export interface SampleEmail {
  label: string;
  description: string;
  text: string;
}

/** Stands in the email bodies for the sender's name; the client replaces it. */
export const SENDER_NAME_PLACEHOLDER = '[Your name]';

/** The variant an email is written in: a style, or B for a balanced blend. */
export type EmailVariant = Style | 'B';
export const EMAIL_VARIANTS: readonly EmailVariant[] = ['D', 'I', 'S', 'C', 'B'];

export interface EmailSituation {
  key: string;
  label: string;
  /** Paragraphs: how this reader takes this kind of email (with its tentative wording), then what to do in it. */
  tips: Record<EmailVariant, Hedged[]>;
  text: Record<EmailVariant, string[]>;
}

export interface EmailLibrary {
  sender_notes: Record<Style, Partial<Record<Style, HedgedPair>>>;
  /** `tentative`: the closing paragraph of the first email's tips for a tentative reader (`{name}`). */
  notes: { tentative: string };
  situations: EmailSituation[];
}

/** Every problem in a parsed templates file: shape, coverage and template syntax. */
export function emailLibraryProblems(data: unknown): string[] {
  const problems: string[] = [];
  const text = (where: string, value: unknown, allowed: string[]): void => {
    if (typeof value !== 'string') problems.push(`${where}: must be a string`);
    else problems.push(...templateProblems(value, allowed).map((p) => `${where}: ${p}`));
  };
  if (!isRecord(data)) return ['templates.json: must be an object'];
  const notes = data.sender_notes;
  for (const s of STYLES) {
    const row = isRecord(notes) ? notes[s] : undefined;
    if (!isRecord(row)) problems.push(`sender_notes.${s}: must be an object`);
    else for (const [r, note] of Object.entries(row)) problems.push(...hedgedPairProblems(note, ['name']).map((p) => `sender_notes.${s}.${r}: ${p}`));
  }
  text('notes.tentative', isRecord(data.notes) ? data.notes.tentative : undefined, ['name']);
  if (!Array.isArray(data.situations) || data.situations.length < 5) problems.push('situations: need at least five');
  const keys = new Set<string>();
  // sentence -> where it was first seen, per variant and wording: one reader sees all six situations.
  const seen = new Map<string, string>();
  for (const [i, s] of (Array.isArray(data.situations) ? data.situations : []).entries()) {
    if (!isRecord(s) || typeof s.key !== 'string' || typeof s.label !== 'string') {
      problems.push(`situations[${i}]: needs key and label strings`);
      continue;
    }
    if (keys.has(s.key)) problems.push(`situations[${i}]: duplicate key ${s.key}`);
    keys.add(s.key);
    text(`${s.key}.label`, s.label, []);
    for (const v of EMAIL_VARIANTS) {
      const paragraphs = isRecord(s.tips) ? s.tips[v] : undefined;
      if (!Array.isArray(paragraphs) || paragraphs.length === 0) problems.push(`${s.key}.tips.${v}: needs paragraphs`);
      else {
        paragraphs.forEach((p: unknown, n) => problems.push(...hedgedProblems(p, ['name']).map((q) => `${s.key}.tips.${v}[${n}]: ${q}`)));
        const valid = paragraphs.filter((p: unknown): p is Hedged => hedgedProblems(p, ['name']).length === 0);
        for (const [reading, pick] of [['firm', false], ['tentative', true]] as const) {
          for (const sentence of valid.flatMap((p) => sentencesOf(hedgedText(p, pick)))) {
            const where = seen.get(`${v} ${reading} ${sentence}`);
            if (where !== undefined && where !== s.key) problems.push(`${s.key}.tips.${v}: repeats a sentence of ${where}: "${sentence}"`);
            seen.set(`${v} ${reading} ${sentence}`, s.key);
          }
        }
      }
      const lines = isRecord(s.text) ? s.text[v] : undefined;
      if (!Array.isArray(lines) || lines.length < 3) problems.push(`${s.key}.text.${v}: needs lines`);
      else lines.forEach((line: unknown, n) => (line === '' ? undefined : text(`${s.key}.text.${v}[${n}]`, line, ['name', 'sender'])));
      if (Array.isArray(lines) && (lines[0] !== undefined && !String(lines[0]).includes('{name}'))) {
        problems.push(`${s.key}.text.${v}: the first line must greet {name}`);
      }
      if (Array.isArray(lines) && !lines.some((line) => String(line).includes('{sender}'))) {
        problems.push(`${s.key}.text.${v}: must be signed with {sender}`);
      }
    }
  }
  return problems;
}

/** The sentences of a text, markup removed and spaces folded, for spotting repeats. */
export function sentencesOf(text: string): string[] {
  return text
    .replace(/<[^>]*>/g, '\n')
    .split(/(?<=[^\d][.!?])\s+|\n+/)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => s !== '');
}

let cached: EmailLibrary | undefined;

export function loadEmailLibrary(): EmailLibrary {
  if (cached === undefined) {
    const file = fileURLToPath(new URL('../emails/templates.json', import.meta.url));
    const data = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    const problems = emailLibraryProblems(data);
    if (problems.length > 0) throw new Error(`email templates are invalid:\n  ${problems.join('\n  ')}`);
    cached = data as EmailLibrary;
  }
  return cached;
}

export function emailVariant(view: PartyView): EmailVariant {
  return view.blend ? 'B' : view.style;
}

export function composeSampleEmails(recipient: Party, sender: Party | null, library: EmailLibrary = loadEmailLibrary()): SampleEmail[] {
  const reader = viewParty(recipient);
  const variant = emailVariant(reader);
  const about = { name: nameSlot(reader, 'your contact') };
  // In a greeting an unknown name reads best as "Hi there,".
  const greet = { name: nameSlot(reader, 'there'), sender: { html: escapeHtml(SENDER_NAME_PLACEHOLDER), fallback: false } };
  const paragraph = (template: string): string => `<p>${fillTemplate(template, about)}</p>`;
  const writer = sender === null ? null : viewParty(sender);
  const senderNote = writer === null ? undefined : library.sender_notes[writer.style][reader.style];
  return library.situations.map((situation, index) => {
    const description = situation.tips[variant].map((tip) => paragraph(hedgedText(tip, reader.tentative)));
    // Notes that hold for every email are said once, with the first: that the tips about this
    // reader are tentative, then the sender's own habit.
    if (reader.tentative && index === 0) description.push(paragraph(library.notes.tentative));
    if (writer !== null && senderNote !== undefined && index === 0) description.push(paragraph(pairText(senderNote, writer.tentative, reader.tentative)));
    const text = situation.text[variant].map((line) => fillTemplate(line, greet)).join('<br>');
    return { label: escapeHtml(situation.label), description: description.join(''), text };
  });
}
