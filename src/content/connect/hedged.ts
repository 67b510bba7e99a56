/**
 * Texts that state a person's style, written twice: as fact, and as a tendency for a person whose
 * placement is tentative (thin evidence, party.ts `tentative`, as their own profile reads it).
 *
 * In the message advice (messaging/*.json) and the email tips (emails/templates.json) a text is
 * either a string, which says nothing of the person's style that needs hedging (generic writing
 * advice: "Split it into simple steps"), or `{"text": …, "tentative": …}`: the firm wording, and
 * the one a tentative person gets ("may", "seems to", "is likely to", "if … is as … as their
 * writing suggests"). The composers pick one with `hedgedText`; the loaders check both with
 * `hedgedProblems`.
 *
 * A note on the sender's own habit may describe the reader as well ("You write briskly; {name}
 * will read a one-line email as cold"). As a relationship overview has a text for every set of
 * its people who may be tentative, such a note is `{"text", "sender", "reader", "both"}`: the
 * variants for a tentative sender, a tentative reader and both, given for the people it
 * describes (a note about the sender alone has `sender` only). `pairText` picks one.
 */
import { HEDGE, HEDGE_MISSING } from '../hedge.ts';
import { templateProblems } from '../relationship/library.ts';
import { isRecord } from '../../shared/records.ts';

export type Hedged = string | { text: string; tentative: string };

/** The wording for this person: the tentative variant where their placement is tentative. */
export function hedgedText(value: Hedged, tentative: boolean): string {
  return typeof value === 'string' ? value : tentative ? value.tentative : value.text;
}

/** A note about the sender and, perhaps, the reader (above); a missing key: that person is not described. */
export type HedgedPair = string | { text: string; sender?: string; reader?: string; both?: string };

/** The wording of a sender's note for these tentative people. */
export function pairText(value: HedgedPair, sender: boolean, reader: boolean): string {
  if (typeof value === 'string') return value;
  if (sender && reader) return value.both ?? value.sender ?? value.reader ?? value.text;
  if (sender) return value.sender ?? value.text;
  if (reader) return value.reader ?? value.text;
  return value.text;
}

/** Problems with a text or a pair of wordings: shape, template syntax, and a real hedge in the variant. */
export function hedgedProblems(value: unknown, allowed: readonly string[]): string[] {
  if (typeof value === 'string') return templateProblems(value, allowed);
  if (!isRecord(value) || typeof value.text !== 'string' || typeof value.tentative !== 'string') {
    return ['must be a string, or {"text", "tentative"} strings'];
  }
  const problems = [...templateProblems(value.text, allowed), ...templateProblems(value.tentative, allowed).map((p) => `tentative: ${p}`)];
  const extra = Object.keys(value).filter((key) => key !== 'text' && key !== 'tentative');
  if (extra.length > 0) problems.push(`unknown keys: ${extra.join(', ')}`);
  if (value.tentative === value.text) problems.push('tentative repeats the firm text');
  if (!HEDGE.test(value.tentative)) problems.push(`tentative ${HEDGE_MISSING}`);
  return problems;
}

/** Problems with a sender's note: shape, template syntax, variants for the people it describes, each hedged. */
export function hedgedPairProblems(value: unknown, allowed: readonly string[]): string[] {
  if (typeof value === 'string') return templateProblems(value, allowed);
  if (!isRecord(value) || typeof value.text !== 'string') return ['must be a string, or {"text", "sender", "reader", "both"} strings'];
  const firm = value.text;
  const problems = templateProblems(firm, allowed);
  const extra = Object.keys(value).filter((key) => !['text', 'sender', 'reader', 'both'].includes(key));
  if (extra.length > 0) problems.push(`unknown keys: ${extra.join(', ')}`);
  for (const key of ['sender', 'reader', 'both'] as const) {
    const variant = value[key];
    if (variant === undefined) continue;
    if (typeof variant !== 'string') {
      problems.push(`${key}: must be a string`);
      continue;
    }
    problems.push(...templateProblems(variant, allowed).map((p) => `${key}: ${p}`));
    if (variant === firm) problems.push(`${key}: repeats the firm text`);
    if (!HEDGE.test(variant)) problems.push(`${key}: ${HEDGE_MISSING}`);
  }
  if (value.sender === undefined && value.reader === undefined) problems.push('needs a "sender" or "reader" variant');
  const two = value.sender !== undefined && value.reader !== undefined;
  if (two !== (value.both !== undefined)) problems.push('"both" goes with "sender" and "reader" (a note describing the two of them), and only then');
  return problems;
}
