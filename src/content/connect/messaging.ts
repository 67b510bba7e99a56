/**
 * C4: recommendations on a draft message, for this recipient's style and, where it helps,
 * the sender's own habits. Each recommendation points at a passage of at most one sentence by
 * UTF-16 offsets into the submitted text (JavaScript string indices: `text.slice(start, end)` is
 * the passage): the offending words where there are some, the sentence where a whole sentence is
 * at fault (no greeting, no ask, too long).
 *
 * What is checked is in draft/ (findings.ts lists it); the advice is data
 * (src/content/messaging/advice.json, sender.json, habits.json, notes.json). The only markup in a
 * recommendation is `<span class="…">`: `rapport-quote` around a quoted passage (escaped),
 * `rapport-sender` around a note on the sender's own style, and `rapport-tentative` around the
 * note that the advice rests on little of the reader's writing. The submitted text is never
 * returned except as an escaped quote of a few words.
 *
 * A reader whose placement is tentative (thin evidence, as their own profile reads it) is not
 * described as fact: every text that states their style has a tentative wording (hedged.ts), and
 * the first recommendation ends with a note saying the advice is tentative, as their profile
 * opens with one. Advice on the writing itself ("split it into simple steps") is the same for
 * everybody. The note on the sender's own habit is hedged the same way for a tentative sender
 * (and for a tentative reader where it speaks of them); a note drawn from the draft alone ("This
 * draft softens itself 5 times") is said where the sender's style has none for that habit.
 *
 * One pass over the text (message-scan.ts), then a fixed number of checks over its words and
 * sentences: linear in the text's length.
 */
import { escapeHtml } from '../../shared/html.ts';
import { viewParty, type Party } from '../party.ts';
import { hedgedText, pairText } from './hedged.ts';
import type { Check, MessagingLibrary } from './messaging-library.ts';
import { scanMessage } from './message-scan.ts';
import { reviewScan } from './draft/findings.ts';
import type { Finding } from './draft/draft.ts';
import { fillTemplate, nameSlot, type NameSlot } from './render.ts';

export { CHECKS, messagingLibraryProblems, type Check } from './messaging-library.ts';

export interface MessageRecommendation {
  start: number;
  end: number;
  recommendation: string;
}

/** A recommendation with the check that made it (the API leaves it out; the draft evaluation scores by it). */
export type CheckedRecommendation = MessageRecommendation & { check: Check };

/** Longest text accepted (UTF-16 code units); the route answers 413 above it. */
export const MESSAGE_MAX_CHARS = 20_000;
/** At most this many recommendations, in the order of the text. */
export const MAX_RECOMMENDATIONS = 30;
/** Checks on words say every occurrence up to this many; checks of the reader's thresholds at most 3 each. */
export const PER_WORD_CHECK = 10;
const PER_KIND = 3;
const WORD_CHECKS: ReadonlySet<Check> = new Set(['pressure', 'booked', 'leverage', 'brush_off', 'vague', 'hedge', 'filler']);
/** Which recommendations stay when there are too many: what the reader would notice first. */
const PRIORITY: readonly Check[] = [
  'wrong_name', 'booked', 'leverage', 'brush_off', 'pressure', 'missing_ask', 'greeting', 'vague', 'hedge', 'filler',
  'small_talk', 'reassurance', 'warmth', 'ask_late', 'too_long', 'long_sentence', 'exclamation', 'fits', 'short_fits',
];
/** Habits counted together: pushing is one habit whichever way a draft pushes. */
const HABIT_OF: Partial<Record<Check, Check>> = { booked: 'pressure', leverage: 'pressure', brush_off: 'pressure' };
/** Stands for the quote while a template is filled: no template holds "<" (checked at load) and names are escaped. */
const QUOTE_MARK = '<quote>';
/** Quotes longer than this are cut (on a character boundary) and end with an ellipsis. */
const QUOTE_MAX = 60;

/** An escaped quote of a passage, cut on a character boundary; `*` is escaped as well. */
function quote(text: string, start: number, end: number): string {
  let cut = Math.min(end, start + QUOTE_MAX);
  // Never split a surrogate pair (an emoji): back off one unit if the cut lands inside one.
  if (cut < end && cut > start) {
    const code = text.charCodeAt(cut);
    if (code >= 0xdc00 && code <= 0xdfff) cut -= 1;
  }
  const body = escapeHtml(text.slice(start, cut)).replaceAll('*', '&#42;');
  return `<span class="rapport-quote">“${body}${cut < end ? '…' : ''}”</span>`;
}

/** The findings that are said: every one up to the caps, the reader's first notices first when there are too many. */
function chosen(findings: readonly (Finding & { check: Check })[], library: MessagingLibrary, style: keyof MessagingLibrary['sender']): (Finding & { check: Check })[] {
  const counts = new Map<Check, number>();
  const said = [...findings]
    .filter((f) => library.advice[f.check][style] !== undefined && f.end > f.start)
    .sort((a, b) => a.start - b.start || a.end - b.end)
    .filter((f) => {
      const count = counts.get(f.check) ?? 0;
      counts.set(f.check, count + 1);
      return count < (WORD_CHECKS.has(f.check) ? PER_WORD_CHECK : PER_KIND);
    });
  const rank = (f: Finding & { check: Check }): number => PRIORITY.indexOf(f.check);
  const kept = new Set([...said].sort((a, b) => rank(a) - rank(b) || a.start - b.start).slice(0, MAX_RECOMMENDATIONS));
  return said.filter((f) => kept.has(f));
}

export function recommendMessage(text: string, sender: Party, recipient: Party, library: MessagingLibrary): MessageRecommendation[] {
  return reviewDraft(text, sender, recipient, library).map(({ start, end, recommendation }) => ({ start, end, recommendation }));
}

export function reviewDraft(text: string, sender: Party, recipient: Party, library: MessagingLibrary): CheckedRecommendation[] {
  if (typeof text !== 'string' || text.trim() === '') return [];
  const scan = scanMessage(text.length > MESSAGE_MAX_CHARS ? text.slice(0, MESSAGE_MAX_CHARS) : text);
  const reader = viewParty(recipient);
  const writer = viewParty(sender);
  const review = reviewScan(scan, { style: reader.style, name: reader.name });
  let findings = review.findings as (Finding & { check: Check })[];
  // Saying nothing would leave the writer guessing whether the draft was checked at all. Under
  // eight words only the wording was checked (the shape checks need more): that is all it says.
  const words = scan.tokens.length;
  const anchor = scan.sentences[review.anchor ?? 0] ?? scan.sentences[0];
  if (findings.length === 0 && anchor !== undefined && words > 0) findings = [{ check: words >= 8 ? 'fits' : 'short_fits', start: anchor.start, end: anchor.end, sentence: review.anchor ?? 0 }];

  const name: NameSlot = nameSlot(reader, 'your contact');
  // Each template is filled once per draft with a marker for the quote, which each passage then replaces.
  const templates = new Map<string, string>();
  const filled = (template: string, f: Finding): string => {
    if (f.words !== undefined || f.limit !== undefined) {
      const counts: Record<string, NameSlot> = { name, words: { html: String(f.words ?? ''), fallback: false }, limit: { html: String(f.limit ?? ''), fallback: false } };
      return fillTemplate(template, counts);
    }
    let text = templates.get(template);
    if (text === undefined) {
      text = fillTemplate(template, { name, quote: { html: QUOTE_MARK, fallback: false } });
      templates.set(template, text);
    }
    // A function, not a string: a replacement string would read `$&`, `$'` or `$$` in the draft as patterns.
    return text.includes(QUOTE_MARK) ? text.replace(QUOTE_MARK, () => quote(scan.text, f.start, f.end)) : text;
  };
  // The same style writes the way this reader likes to read: no note about the sender's habits from their style.
  const senderNotes = writer.style === reader.style ? {} : library.sender[writer.style];
  const habitCounts = new Map<Check, number>();
  for (const f of findings) habitCounts.set(HABIT_OF[f.check] ?? f.check, (habitCounts.get(HABIT_OF[f.check] ?? f.check) ?? 0) + 1);
  const ownNoted = new Set<Check>();
  const habitNoted = new Set<Check>();
  const out: CheckedRecommendation[] = chosen(findings, library, reader.style).map((f) => {
    const advice = library.advice[f.check][reader.style];
    let recommendation = advice === undefined ? '' : filled(hedgedText(advice, reader.tentative), f);
    // A note on the sender's habit, once per kind: their style's own where it has one, else once
    // per habit what the draft shows of it.
    const habit = HABIT_OF[f.check] ?? f.check;
    const own = senderNotes[f.check];
    const shown = library.habits[habit];
    let note: string | undefined;
    if (own !== undefined && !ownNoted.has(f.check)) note = pairText(own, writer.tentative, reader.tentative);
    else if (own === undefined && shown !== undefined && !habitNoted.has(habit) && (habitCounts.get(habit) ?? 0) >= shown.min) {
      note = shown.text.replace('{count}', String(habitCounts.get(habit) ?? 0));
    }
    if (note !== undefined) {
      recommendation += ` <span class="rapport-sender">${escapeHtml(note)}</span>`;
      ownNoted.add(f.check);
      habitNoted.add(habit);
    }
    return { start: f.start, end: f.end, recommendation, check: f.check };
  });
  // All of it rests on the reader's style: said once, with the first recommendation.
  const first = out[0];
  if (reader.tentative && first !== undefined) {
    first.recommendation += ` <span class="rapport-tentative">${fillTemplate(library.notes.tentative, { name })}</span>`;
  }
  return out;
}
