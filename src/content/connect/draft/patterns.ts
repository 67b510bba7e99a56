/**
 * Short word patterns over the draft's words (words.ts), and the pass that matches them all.
 *
 * A pattern is a line of slots: `booked|scheduled` (one of these words), `set_up` (two words in a
 * row), `#` (a number, in digits or words), a trailing `?` (may be absent), `~3` (up to three words
 * of anything, in the same sentence).
 * Words of adjacent slots must follow each other with only spaces or hyphens between them, so a
 * pattern never runs over a comma. Matching is bounded by the pattern's own size (a few slots, short
 * gaps) at each word, so a check stays linear in the text's length.
 */
import type { Scan } from '../message-scan.ts';
import { isNumber, type Word } from './words.ts';

function fits(slotWord: string | undefined, word: string | undefined): boolean {
  return word !== undefined && (slotWord === '#' ? isNumber(word) : slotWord === word);
}

/**
 * A slot of words: its alternatives, and the same indexed by their first word (a number slot `#`
 * apart), so matching at a word looks only at the alternatives that can start there.
 */
interface WordSlot {
  alternatives: string[][];
  byFirst: Map<string, string[][]>;
  numbered: string[][];
  optional: boolean;
}
type Slot = WordSlot | { gap: number };

function wordSlot(alternatives: string[][], optional: boolean): WordSlot {
  const byFirst = new Map<string, string[][]>();
  const numbered: string[][] = [];
  for (const alternative of alternatives) {
    const first = alternative[0] ?? '';
    if (first === '#') numbered.push(alternative);
    else byFirst.set(first, [...(byFirst.get(first) ?? []), alternative]);
  }
  return { alternatives, byFirst, numbered, optional };
}

export interface Pattern {
  source: string;
  slots: Slot[];
  id: number;
  /**
   * A required slot after the first, as the first words of its alternatives (the one with the
   * fewest): one of them must be in the draft for the pattern to match at all. Null when the
   * pattern has none (one slot, or only numbers and optional words after the first).
   */
  anchor: string[] | null;
}

let patternCount = 0;

export function compilePattern(source: string): Pattern {
  const slots: Slot[] = source.split(' ').filter((part) => part !== '').map((part): Slot => {
    if (part.startsWith('~')) return { gap: Number(part.slice(1)) };
    const optional = part.endsWith('?');
    const body = optional ? part.slice(0, -1) : part;
    return wordSlot(body.split('|').map((alternative) => alternative.split('_')), optional);
  });
  const first = slots[0];
  if (first === undefined || 'gap' in first || first.optional) throw new Error(`pattern "${source}": must start with a required word`);
  let anchor: string[] | null = null;
  for (const slot of slots.slice(1)) {
    if ('gap' in slot || slot.optional || slot.numbered.length > 0) continue;
    if (anchor === null || slot.byFirst.size < anchor.length) anchor = [...slot.byFirst.keys()];
  }
  const id = patternCount++;
  for (const word of anchor ?? []) roleOf(word).anchors.push(id);
  return { source, slots, id, anchor };
}

export interface PatternMatch {
  /** First and last word of the match (indices into the word list). */
  from: number;
  to: number;
  start: number;
  end: number;
  sentence: number;
  pattern: string;
}

/** A pattern of a set, listed under a word that can start it. */
interface Entry {
  set: number;
  pattern: Pattern;
}
/**
 * What a word can do in any pattern set: start patterns (by set, in the order the sets were made)
 * and be the anchor of others. Every set registers here when made, so a draft is matched against
 * all of them with one look-up per word.
 */
interface WordRole {
  starts: Entry[];
  anchors: number[];
}
const ROLES = new Map<string, WordRole>();
const NUMBER_STARTS: Entry[] = [];
let setCount = 0;

function roleOf(word: string): WordRole {
  let role = ROLES.get(word);
  if (role === undefined) {
    role = { starts: [], anchors: [] };
    ROLES.set(word, role);
  }
  return role;
}

/**
 * Every match of every pattern set in the draft, by set id: in each set leftmost first, at one
 * start the longest, and no two of a set overlapping. One pass to mark which patterns' anchors the
 * draft holds, one to match; linear in the words, each try bounded by its pattern's size.
 */
/**
 * Per pattern, the number of the last draft whose words hold its anchor. A draft marks its
 * patterns here instead of in an array of its own (allocating one per draft cost a tenth of a short
 * draft's check); `matchSets` runs to its end without yielding, so two drafts never share it.
 */
let anchorSeen = new Int32Array(0);
let draftNumber = 0;
const NONE: readonly PatternMatch[] = Object.freeze([]);

export function matchSets(scan: Scan, words: readonly Word[]): (readonly PatternMatch[])[] {
  if (anchorSeen.length < patternCount || draftNumber >= 0x7fffffff) {
    anchorSeen = new Int32Array(patternCount);
    draftNumber = 0;
  }
  const draft = ++draftNumber;
  const roles: (WordRole | undefined)[] = new Array<WordRole | undefined>(words.length);
  for (let i = 0; i < words.length; i++) {
    const role = ROLES.get(words[i]?.w ?? '');
    roles[i] = role;
    if (role !== undefined) for (const id of role.anchors) anchorSeen[id] = draft;
  }
  const found: PatternMatch[][] = [];
  const free: number[] = new Array<number>(setCount).fill(0);
  const bestTo: number[] = new Array<number>(setCount).fill(-1);
  const bestSource: string[] = new Array<string>(setCount).fill('');
  const touched: number[] = [];
  const tryAll = (i: number, entries: readonly Entry[]): void => {
    for (const { set, pattern } of entries) {
      if (i < (free[set] ?? 0) || (pattern.anchor !== null && anchorSeen[pattern.id] !== draft)) continue;
      const to = matchSlots(scan, words, pattern.slots, 0, i, -1);
      if (to === null || to <= (bestTo[set] ?? -1)) continue;
      if ((bestTo[set] ?? -1) < 0) touched.push(set);
      bestTo[set] = to;
      bestSource[set] = pattern.source;
    }
  };
  for (let i = 0; i < words.length; i++) {
    const role = roles[i];
    if (role !== undefined) tryAll(i, role.starts);
    if (NUMBER_STARTS.length > 0 && isNumber(words[i]?.w ?? '')) tryAll(i, NUMBER_STARTS);
    if (touched.length === 0) continue;
    for (const set of touched) {
      const to = bestTo[set] ?? -1;
      (found[set] ??= []).push(toMatch(scan, words, i, to, bestSource[set] ?? ''));
      free[set] = to + 1;
      bestTo[set] = -1;
    }
    touched.length = 0;
  }
  const bySet: (readonly PatternMatch[])[] = found;
  for (let set = 0; set < setCount; set++) bySet[set] ??= NONE;
  return bySet;
}

export class PatternSet {
  /** Its place in `matchSets`'s answer. */
  readonly id = setCount++;
  private readonly byFirst = new Map<string, Pattern[]>();

  constructor(sources: readonly string[]) {
    for (const source of sources) {
      const pattern = compilePattern(source);
      const first = pattern.slots[0];
      if (first === undefined || 'gap' in first) continue;
      for (const alternative of first.alternatives) {
        const key = alternative[0] ?? '';
        const known = this.byFirst.get(key);
        this.byFirst.set(key, [...(known ?? []), pattern]);
        // A pattern listed once under each word that starts it, in this set's order.
        if (known?.includes(pattern) !== true) (key === '#' ? NUMBER_STARTS : roleOf(key).starts).push({ set: this.id, pattern });
      }
    }
  }

  /** The longest match starting at word i, or null. */
  matchAt(scan: Scan, words: readonly Word[], i: number): PatternMatch | null {
    const w = words[i]?.w ?? '';
    const candidates = this.byFirst.get(w) ?? (isNumber(w) ? this.byFirst.get('#') : undefined);
    let best: { to: number; source: string } | null = null;
    for (const pattern of candidates ?? []) {
      const to = matchSlots(scan, words, pattern.slots, 0, i, -1);
      if (to !== null && (best === null || to > best.to)) best = { to, source: pattern.source };
    }
    return best === null ? null : toMatch(scan, words, i, best.to, best.source);
  }

  /** Every match of this set alone (a draft asks `matchSets` once for all of them: draft.ts `findIn`). */
  find(scan: Scan, words: readonly Word[]): readonly PatternMatch[] {
    return matchSets(scan, words)[this.id] ?? [];
  }
}

export function toMatch(scan: Scan, words: readonly Word[], from: number, to: number, pattern: string): PatternMatch {
  const first = scan.tokens[words[from]?.token ?? 0];
  const last = scan.tokens[words[to]?.token ?? 0];
  let end = last?.end ?? 0;
  // A figure keeps its per cent sign: "the price goes up 30%", not "…up 30".
  if (scan.text.charAt(end) === '%' && isNumber(words[to]?.w ?? '')) end += 1;
  return { from, to, start: first?.start ?? 0, end, sentence: scan.tokenSentence[words[from]?.token ?? 0] ?? 0, pattern };
}

/** Only spaces and hyphens between two words (or they share a token, as a spelt-out contraction does). */
export function adjacent(scan: Scan, words: readonly Word[], a: number, b: number): boolean {
  const one = words[a];
  const two = words[b];
  if (one === undefined || two === undefined) return false;
  if (one.token === two.token) return true;
  const left = scan.tokens[one.token];
  const right = scan.tokens[two.token];
  if (left === undefined || right === undefined || right.start - left.end > 3) return false;
  for (let k = left.end; k < right.start; k++) {
    const ch = scan.text.charAt(k);
    if (ch !== ' ' && ch !== '-' && ch !== '\u00a0') return false;
  }
  return true;
}

function sameSentence(scan: Scan, words: readonly Word[], a: number, b: number): boolean {
  return scan.tokenSentence[words[a]?.token ?? -1] === scan.tokenSentence[words[b]?.token ?? -2];
}

/**
 * Index of the last word of a match of slots[s…] starting at word i, or null; `prev` is the last
 * word of the previous slot (-1 before the first). Right after a gap the next slot may start
 * anywhere in the same sentence; otherwise each word must follow the one before it (`adjacent`).
 * The longest match wins.
 */
function matchSlots(scan: Scan, words: readonly Word[], slots: readonly Slot[], s: number, i: number, prev: number, afterGap = false): number | null {
  const slot = slots[s];
  if (slot === undefined) return prev;
  let best = -1;
  if ('gap' in slot) {
    for (let skip = 0; skip <= slot.gap; skip++) {
      const at = i + skip;
      if (at >= words.length || (prev >= 0 && !sameSentence(scan, words, prev, at))) break;
      best = Math.max(best, matchSlots(scan, words, slots, s + 1, at, prev, true) ?? -1);
    }
    return best < 0 ? null : best;
  }
  const w = words[i]?.w;
  if (w !== undefined) {
    const listed = slot.byFirst.get(w);
    if (listed !== undefined) for (const alternative of listed) best = Math.max(best, matchAlternative(scan, words, slots, s, i, prev, afterGap, alternative));
    if (slot.numbered.length > 0 && isNumber(w)) for (const alternative of slot.numbered) best = Math.max(best, matchAlternative(scan, words, slots, s, i, prev, afterGap, alternative));
  }
  if (slot.optional) best = Math.max(best, matchSlots(scan, words, slots, s + 1, i, prev, afterGap) ?? -1);
  return best < 0 ? null : best;
}

/** One alternative of slot s at word i (its first word already fits), then the slots after it: the last word's index, or -1. */
function matchAlternative(scan: Scan, words: readonly Word[], slots: readonly Slot[], s: number, i: number, prev: number, afterGap: boolean, alternative: readonly string[]): number {
  if (prev >= 0 && (afterGap ? !sameSentence(scan, words, prev, i) : !adjacent(scan, words, i - 1, i))) return -1;
  for (let k = 1; k < alternative.length; k++) {
    if (!fits(alternative[k], words[i + k]?.w) || !adjacent(scan, words, i + k - 1, i + k)) return -1;
  }
  return matchSlots(scan, words, slots, s + 1, i + alternative.length, i + alternative.length - 1) ?? -1;
}
