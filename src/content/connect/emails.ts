/**
 * C5: sample emails written for the reader's reading and role. Six situations, each in five
 * variants (D, I, S, C: the reader's style, their type's first letter; B for a central
 * reading), from src/content/emails/templates.json. A reader whose type leans toward a
 * neighbouring style (Di, Dc) gets that style's closing line in each email and its tip; the first
 * email adds a note for an even blend of two styles and one on what their role usually brings.
 * So no two readers of different types get the same six emails. `description` is HTML paragraphs
 * written for that situation and that reader (no paragraph is shared between situations: six
 * emails carrying the same style paragraph read as machine-made), `text` the body with <br> line
 * breaks: the recipient's escaped first name in the greeting and SENDER_NAME_PLACEHOLDER where
 * the sender signs.
 *
 * A reader whose placement is tentative (thin evidence, as their own profile reads it) is not
 * described as fact: each tip that says how the reader takes an email has a tentative wording
 * (hedged.ts), and the first email's description ends its tips with a note that they are
 * tentative (`notes.tentative`), as the reader's profile opens with one. The emails themselves
 * are not hedged: they are written to suit the reader, in the variant their reading gives. The
 * note on the sender's own habit is hedged for whichever of the two is tentative.
 */
import { escapeHtml } from '../../shared/html.ts';
import { viewParty, type Party, type PartyView, type Style } from '../party.ts';
import { STYLES, templateProblems } from '../relationship/library.ts';
import { hedgedPairProblems, hedgedProblems, hedgedText, pairText, type Hedged, type HedgedPair } from './hedged.ts';
import { fillTemplate, nameSlot } from './render.ts';
import { isRecord } from '../../shared/records.ts';
import { ROLE_FAMILIES, type RoleFamily } from '../roles.ts';

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

/** What a reader's lean toward a neighbouring style adds to one email: a line in it, and why. */
export interface EmailLean {
  line: string;
  tip: Hedged;
}

export interface EmailSituation {
  key: string;
  label: string;
  /** Paragraphs: how this reader takes this kind of email (with its tentative wording), then what to do in it. */
  tips: Record<EmailVariant, Hedged[]>;
  text: Record<EmailVariant, string[]>;
  /** For a reader whose type leans toward this style (Di, Id: toward D or I), a closing line and its tip. */
  lean: Record<Style, EmailLean>;
}

/** The types that are as much one style as the next (their code's second letter is a capital). */
export const EVEN_BLENDS = ['DI', 'CD', 'SC', 'IS'] as const;

export interface EmailLibrary {
  senderNotes: Record<Style, Partial<Record<Style, HedgedPair>>>;
  /** `tentative`: the closing paragraph of the first email's tips for a tentative reader (`{name}`). */
  notes: { tentative: string };
  /** With the first email, for a reader of an even blend of two styles. */
  blends: Record<(typeof EVEN_BLENDS)[number], Hedged>;
  /** With the first email, for a reader whose title names a role family: what such roles usually bring. */
  roles: Record<RoleFamily, string>;
  situations: EmailSituation[];
}

/**
 * The library from emails/templates.json once its schema and checks passed. The file keeps its
 * writers' key (`sender_notes`, what a problem's pointer names); code reads `senderNotes`.
 */
export function emailLibraryFromFile(file: Record<string, unknown>): EmailLibrary {
  const { sender_notes: senderNotes, ...rest } = file;
  // The schema (EmailTemplatesFileSchema) checked every field: the file has the library's shape.
  return { ...(rest as Omit<EmailLibrary, 'senderNotes'>), senderNotes: senderNotes as EmailLibrary['senderNotes'] };
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
  for (const key of EVEN_BLENDS) {
    const note = isRecord(data.blends) ? data.blends[key] : undefined;
    problems.push(...hedgedProblems(note, ['name']).map((p) => `blends.${key}: ${p}`));
  }
  for (const role of ROLE_FAMILIES) text(`roles.${role}`, isRecord(data.roles) ? data.roles[role] : undefined, ['name']);
  const leanTips = new Map<string, string>();
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
    for (const style of STYLES) {
      const lean = isRecord(s.lean) ? s.lean[style] : undefined;
      if (!isRecord(lean)) {
        problems.push(`${s.key}.lean.${style}: needs a line and a tip`);
        continue;
      }
      text(`${s.key}.lean.${style}.line`, lean.line, []);
      problems.push(...hedgedProblems(lean.tip, ['name']).map((p) => `${s.key}.lean.${style}.tip: ${p}`));
      if (hedgedProblems(lean.tip, ['name']).length > 0) continue;
      const tip = hedgedText(lean.tip as Hedged, false);
      const where = leanTips.get(`${style} ${tip}`);
      if (where !== undefined) problems.push(`${s.key}.lean.${style}.tip: repeats the tip of ${where}`);
      leanTips.set(`${style} ${tip}`, s.key);
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

export function emailVariant(view: PartyView): EmailVariant {
  return view.blend ? 'B' : view.style;
}

/**
 * The styles whose lean lines an email takes: a reader's lean (Di: I; DI: I), and for a blend
 * (the balanced emails) every letter of its type, so blends of different types differ too.
 */
export function leanStyles(view: PartyView): Style[] {
  const { style, lean } = view.reading;
  if (view.blend) return lean === null ? [style] : [style, lean];
  return lean === null ? [] : [lean];
}

/** The body with each lean line as a paragraph of its own before the closing (the last blank line). */
function withLines(lines: readonly string[], extra: readonly string[]): string[] {
  if (extra.length === 0) return [...lines];
  const closing = lines.lastIndexOf('');
  const at = closing < 0 ? lines.length : closing;
  return [...lines.slice(0, at), ...extra.flatMap((line) => ['', line]), ...lines.slice(at)];
}

export function composeSampleEmails(recipient: Party, sender: Party | null, library: EmailLibrary): SampleEmail[] {
  const reader = viewParty(recipient);
  const variant = emailVariant(reader);
  const about = { name: nameSlot(reader, 'your contact') };
  // In a greeting an unknown name reads best as "Hi there,".
  const greet = { name: nameSlot(reader, 'there'), sender: { html: escapeHtml(SENDER_NAME_PLACEHOLDER), fallback: false } };
  const paragraph = (template: string): string => `<p>${fillTemplate(template, about)}</p>`;
  const writer = sender === null ? null : viewParty(sender);
  const senderNote = writer === null ? undefined : library.senderNotes[writer.style][reader.style];
  const leans = leanStyles(reader);
  const evenBlend = EVEN_BLENDS.find((key) => key === reader.reading.type);
  const role = reader.reading.role;
  return library.situations.map((situation, index) => {
    const tips = [...situation.tips[variant], ...(reader.blend ? [] : leans.map((style) => situation.lean[style].tip))];
    const description = tips.map((tip) => paragraph(hedgedText(tip, reader.tentative)));
    // Notes that hold for every email are said once, with the first: who this reader is beyond
    // their style (an even blend, a role), that the tips about them are tentative, then the sender's own habit.
    if (index === 0) {
      if (evenBlend !== undefined) description.push(paragraph(hedgedText(library.blends[evenBlend], reader.tentative)));
      if (role !== null) description.push(paragraph(library.roles[role]));
      if (reader.tentative) description.push(paragraph(library.notes.tentative));
      if (writer !== null && senderNote !== undefined) description.push(paragraph(pairText(senderNote, writer.tentative, reader.tentative)));
    }
    const body = withLines(situation.text[variant], leans.map((style) => situation.lean[style].line));
    const text = body.map((line) => fillTemplate(line, greet)).join('<br>');
    return { label: escapeHtml(situation.label), description: description.join(''), text };
  });
}
