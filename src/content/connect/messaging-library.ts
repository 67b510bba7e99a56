/**
 * C4's advice files (src/content/messaging/): the checks, the advice per check and reader style,
 * the notes on the sender's habits, and the checks their schemas (content-schemas.ts) cannot
 * express. Read once at start-up by load-content.ts; a broken file stops the start.
 */
import type { Style } from '../party.ts';
import { STYLES, templateProblems } from '../relationship/library.ts';
import { isRecord } from '../../shared/records.ts';
import { hedgedPairProblems, hedgedProblems, type Hedged, type HedgedPair } from './hedged.ts';

export const CHECKS = [
  'greeting', 'wrong_name', 'warmth', 'pressure', 'booked', 'leverage', 'brush_off', 'vague', 'hedge', 'filler', 'exclamation',
  'long_sentence', 'too_long', 'missing_ask', 'ask_late', 'small_talk', 'reassurance', 'fits', 'short_fits',
] as const;
export type Check = (typeof CHECKS)[number];
export type AdviceTable = Record<Check, Partial<Record<Style, Hedged>>>;
export type SenderTable = Record<Style, Partial<Record<Check, HedgedPair>>>;
/** `tentative`: the note for a reader whose placement is tentative (`{name}`). */
export interface MessagingNotes { tentative: string }
/**
 * A note on the sender's habit drawn from the draft itself: said with the first recommendation of
 * a check that the draft shows at least `min` times (`{count}`), where the sender's own style has
 * no note of its own for it.
 */
export type HabitTable = Partial<Record<Check, { min: number; text: string }>>;
export interface MessagingLibrary { advice: AdviceTable; sender: SenderTable; notes: MessagingNotes; habits: HabitTable }

const NO_BOLD = 'no **bold** in message advice (its only markup is <span>)';

function habitProblems(habits: unknown, known: readonly string[]): string[] {
  if (!isRecord(habits)) return ['habits.json: must be an object'];
  const problems: string[] = [];
  for (const [check, habit] of Object.entries(habits)) {
    if (!known.includes(check)) problems.push(`habits.json ${check}: unknown check`);
    if (!isRecord(habit) || typeof habit.text !== 'string' || typeof habit.min !== 'number' || !Number.isInteger(habit.min) || habit.min < 2) {
      problems.push(`habits.json ${check}: must be {"min": a whole number of 2 or more, "text": "…"}`);
      continue;
    }
    problems.push(...templateProblems(habit.text, ['count']).map((p) => `habits.json ${check}: ${p}`));
    if (!habit.text.includes('{count}')) problems.push(`habits.json ${check}: say what the draft shows ({count})`);
    if (habit.text.includes('**')) problems.push(`habits.json ${check}: ${NO_BOLD}`);
  }
  return problems;
}

/** Every problem in the parsed advice files: known checks and styles, placeholders, hedged variants. */
export function messagingLibraryProblems(raw: { advice: unknown; sender: unknown; notes: unknown; habits: unknown }): string[] {
  const problems: string[] = [];
  const known = CHECKS as readonly string[];
  if (!isRecord(raw.advice)) problems.push('advice.json: must be an object');
  else {
    for (const check of CHECKS) if (!isRecord(raw.advice[check])) problems.push(`advice.json ${check}: missing`);
    for (const [check, byStyle] of Object.entries(raw.advice)) {
      if (!known.includes(check)) problems.push(`advice.json ${check}: unknown check`);
      if (!isRecord(byStyle)) continue;
      for (const [style, text] of Object.entries(byStyle)) {
        if (!(STYLES as readonly string[]).includes(style)) problems.push(`advice.json ${check}.${style}: style must be D, I, S or C`);
        problems.push(...hedgedProblems(text, ['name', 'quote', 'words', 'limit']).map((p) => `advice.json ${check}.${style}: ${p}`));
        if (JSON.stringify(text).includes('**')) problems.push(`advice.json ${check}.${style}: ${NO_BOLD}`);
      }
    }
  }
  for (const style of STYLES) {
    const notes = isRecord(raw.sender) ? raw.sender[style] : undefined;
    if (!isRecord(notes)) {
      problems.push(`sender.json ${style}: must be an object`);
      continue;
    }
    for (const [check, note] of Object.entries(notes)) {
      if (!known.includes(check)) problems.push(`sender.json ${style}.${check}: unknown check`);
      problems.push(...hedgedPairProblems(note, []).map((p) => `sender.json ${style}.${check}: ${p}`));
    }
  }
  const tentative = isRecord(raw.notes) ? raw.notes.tentative : undefined;
  if (typeof tentative !== 'string') problems.push('notes.json tentative: must be a string');
  else {
    problems.push(...templateProblems(tentative, ['name']).map((p) => `notes.json tentative: ${p}`));
    if (tentative.includes('**')) problems.push(`notes.json tentative: ${NO_BOLD}`);
  }
  problems.push(...habitProblems(raw.habits, known));
  return problems;
}
