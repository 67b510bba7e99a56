/**
 * Every check over a draft, for a reader of one style: what a reader would point out, each as a
 * passage of at most one sentence. The advice for each (messaging.ts) is worded for the reader.
 *
 * Whoever reads it: pressure, a greeting to someone else or none at all, a missing ask (not on a
 * thank-you note), filler, and claims that need a figure. Hedges: every one for D and C readers;
 * for I and S readers, whom a little softness suits, every one once there are two or more. The
 * thresholds of the reader's style: exclamation marks, long sentences and messages, warmth (I, S),
 * pleasantries (D, C), a change with no word of support (S), an ask that comes late (D).
 */
import type { Style } from '../../party.ts';
import type { Scan } from '../message-scan.ts';
import { askSentences, bodySentences, greetingOnly, isThanksNote } from './ask.ts';
import { findClaims, praisesReader } from './claims.ts';
import { readDraft, type Draft, type Finding } from './draft.ts';
import { findFillers, findHedges } from './hedges.ts';
import { findWrongName, readOpening } from './opening.ts';
import { findPressure } from './pressure.ts';
import { CHANGE, REASSURANCE, SMALL_TALK, WARMTH } from './tone.ts';

export interface Reader {
  style: Style;
  /** The reader's first name (as their profile holds it), or null. */
  name: string | null;
}

export interface Review {
  findings: Finding[];
  /** The sentence a note on the whole draft points at: its (last) ask, else its first sentence after the greeting. */
  anchor: number | null;
}

const LONG_SENTENCE: Readonly<Record<Style, number>> = { D: 20, I: 25, S: 28, C: 35 };
export const TOO_LONG: Readonly<Record<Style, number>> = { D: 120, I: 180, S: 220, C: 350 };

function sentenceFinding(draft: Draft, check: string, index: number, extra: Partial<Finding> = {}): Finding[] {
  const s = draft.scan.sentences[index];
  return s === undefined ? [] : [{ check, start: s.start, end: s.end, sentence: index, ...extra }];
}

function opening(draft: Draft, reader: Reader, words: number): Finding[] {
  const { scan } = draft;
  const readerName = reader.name === null ? null : (reader.name.split(' ')[0] ?? '').toLowerCase();
  const read = readOpening(draft, readerName);
  const found: Finding[] = findWrongName(draft, readerName, read);
  if (!read.greeted && words >= 3) found.push(...sentenceFinding(draft, 'greeting', 0));
  if ((reader.style === 'I' || reader.style === 'S') && words >= 12 && !WARMTH.has(scan) && !praisesReader(draft)) found.push(...sentenceFinding(draft, 'warmth', 0));
  // An S reader takes change personally: a change with no word of support reads as a threat.
  const change = CHANGE.find(scan)[0];
  if (reader.style === 'S' && change !== undefined && !REASSURANCE.has(scan)) found.push({ check: 'reassurance', start: change.start, end: change.end, sentence: change.sentence });
  // Pleasantries are warmth to I and S readers and a delay to D and C readers.
  const pleasantry = SMALL_TALK.find(scan)[0];
  if ((reader.style === 'D' || reader.style === 'C') && pleasantry !== undefined) found.push({ check: 'small_talk', start: pleasantry.start, end: pleasantry.end, sentence: pleasantry.sentence });
  return found;
}

function wording(draft: Draft, reader: Reader): Finding[] {
  const hedges = findHedges(draft);
  const soft = reader.style === 'I' || reader.style === 'S';
  const found = [...findPressure(draft), ...findClaims(draft), ...(soft && hedges.length < 2 ? [] : hedges), ...findFillers(draft)];
  const runs = draft.scan.exclamations;
  const flagged =
    reader.style === 'I'
      ? runs.filter((r) => r.end - r.start >= 2)
      : reader.style === 'S'
        ? runs.length >= 2 || runs.some((r) => r.end - r.start >= 2)
          ? runs
          : []
        : runs;
  for (const run of flagged) found.push({ check: 'exclamation', ...run });
  return found;
}

function shape(draft: Draft, reader: Reader, words: number): { found: Finding[]; anchor: number | null } {
  const { scan } = draft;
  const found: Finding[] = [];
  let running = 0;
  let passed = false;
  scan.sentences.forEach((s, index) => {
    if (s.words > LONG_SENTENCE[reader.style]) found.push(...sentenceFinding(draft, 'long_sentence', index, { words: s.words }));
    running += s.words;
    // A long message is pointed at the sentence where it passes the reader's limit: about where they stop reading.
    if (!passed && running > TOO_LONG[reader.style]) {
      passed = true;
      found.push(...sentenceFinding(draft, 'too_long', index, { words, limit: TOO_LONG[reader.style] }));
    }
  });
  const readerName = reader.name === null ? null : (reader.name.split(' ')[0] ?? '').toLowerCase();
  const asks = askSentences(draft, readerName);
  const body = bodySentences(draft);
  const content = body.filter((index) => !greetingOnly(draft, index));
  const last = content[content.length - 1] ?? body[body.length - 1];
  if (asks.size === 0 && last !== undefined && words >= 8 && !isThanksNote(draft, body)) found.push(...sentenceFinding(draft, 'missing_ask', last));
  if (reader.style === 'D' && asks.size > 0 && words > 60) {
    const at = scan.sentences[Math.min(...asks)];
    // Late means the reader has already read most of the message before learning the request.
    if (at !== undefined && at.firstToken > scan.tokens.length * 0.6) found.push(...sentenceFinding(draft, 'ask_late', Math.min(...asks)));
  }
  const anchor = asks.size > 0 ? Math.max(...asks) : (content[0] ?? null);
  return { found, anchor };
}

export function reviewScan(scan: Scan, reader: Reader): Review {
  const draft = readDraft(scan);
  const words = scan.tokens.length;
  const { found, anchor } = shape(draft, reader, words);
  return { findings: [...opening(draft, reader, words), ...wording(draft, reader), ...found], anchor };
}
