/**
 * The draft's words as the checks read them, and short word patterns over them.
 *
 * Contractions are spelt out ("I've" → i have, "won't" → will not, "it's" → it is), so one
 * pattern covers "I've booked" and "I have booked"; each word keeps the token it came from, so a
 * match maps back to offsets in the submitted text. A possessive "'s" ("Friday's") stays part of
 * its word.
 *
 * A pattern is a line of slots: `booked|scheduled` (one of these words), `set_up` (two words in a
 * row), `#` (a number, in digits or words), a trailing `?` (may be absent), `~3` (up to three words
 * of anything, in the same sentence).
 * Words of adjacent slots must follow each other with only spaces or hyphens between them, so a
 * pattern never runs over a comma. Matching is bounded by the pattern's own size (a few slots, short
 * gaps) at each word, so a check stays linear in the text's length.
 */
import type { Scan } from '../message-scan.ts';

export interface Word {
  w: string;
  /** Index of the scan token the word comes from. */
  token: number;
}

const NOT: Readonly<Record<string, string>> = { won: 'will', can: 'can', shan: 'shall', ain: 'is' };
const SUFFIX: Readonly<Record<string, string>> = { ve: 'have', ll: 'will', re: 'are', m: 'am', d: 'would' };
/** "'s" spelt out after these only: elsewhere it is a possessive ("the team's"). */
const IS_AFTER = new Set(['it', 'that', 'there', 'here', 'what', 'he', 'she', 'who', 'where', 'how', 'everything', 'nothing', 'this']);

function spellOut(word: string): string[] {
  const apostrophe = word.indexOf("'");
  if (apostrophe <= 0) return [word];
  const head = word.slice(0, apostrophe);
  const tail = word.slice(apostrophe + 1);
  if (tail === 't' && head.endsWith('n')) return [NOT[head] ?? head.slice(0, -1), 'not'];
  if (tail === 's') return head === 'let' ? ['let', 'us'] : IS_AFTER.has(head) ? [head, 'is'] : [word];
  const spelt = SUFFIX[tail];
  return spelt === undefined ? [word] : [head, spelt];
}

export function wordsOf(scan: Scan): Word[] {
  const words: Word[] = [];
  scan.tokens.forEach((token, index) => {
    if (!token.word.includes("'")) words.push({ w: token.word, token: index });
    else for (const w of spellOut(token.word)) words.push({ w, token: index });
  });
  return words;
}

/** Where each word stands, so a pattern set looks only where its first words are (most drafts hold few of them). */
export interface WordIndex {
  at: Map<string, number[]>;
  numbers: number[];
  /** Whether each pattern asked about so far can match at all in this draft. */
  viable: Map<Pattern, boolean>;
}

export function indexWords(words: readonly Word[]): WordIndex {
  const at = new Map<string, number[]>();
  const numbers: number[] = [];
  words.forEach(({ w }, i) => {
    const list = at.get(w);
    if (list === undefined) at.set(w, [i]);
    else list.push(i);
    if (isNumber(w)) numbers.push(i);
  });
  return { at, numbers, viable: new Map() };
}

const NUMBER_WORDS = new Set([
  'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'fifteen', 'twenty', 'thirty', 'forty', 'fifty', 'hundred', 'hundreds',
  'thousand', 'thousands', 'million', 'millions', 'dozen', 'dozens', 'half', 'twice', 'double', 'triple', 'tripled', 'doubled', 'halved', 'quarter',
]);

/** A figure: digits anywhere in the word ("30", "5pm", "q3", "2x") or a number word. */
export function isNumber(word: string): boolean {
  for (let k = 0; k < word.length; k++) {
    const code = word.charCodeAt(k);
    if (code >= 48 && code <= 57) return true;
  }
  return NUMBER_WORDS.has(word);
}

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
  /** For each required slot, the words one of which must be in the draft for the pattern to match at all. */
  needs: string[][];
}

export function compilePattern(source: string): Pattern {
  const slots: Slot[] = source.split(' ').filter((part) => part !== '').map((part): Slot => {
    if (part.startsWith('~')) return { gap: Number(part.slice(1)) };
    const optional = part.endsWith('?');
    const body = optional ? part.slice(0, -1) : part;
    return wordSlot(body.split('|').map((alternative) => alternative.split('_')), optional);
  });
  const first = slots[0];
  if (first === undefined || 'gap' in first || first.optional) throw new Error(`pattern "${source}": must start with a required word`);
  const needs = slots.flatMap((slot) => ('gap' in slot || slot.optional ? [] : [slot.alternatives.flat()]));
  return { source, slots, needs };
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

/** Patterns indexed by their possible first words. */
export class PatternSet {
  private readonly byFirst = new Map<string, Pattern[]>();
  private numbersFirst: Pattern[] | undefined;

  constructor(sources: readonly string[]) {
    for (const source of sources) {
      const pattern = compilePattern(source);
      const first = pattern.slots[0];
      if (first === undefined || 'gap' in first) continue;
      for (const alternative of first.alternatives) {
        const key = alternative[0] ?? '';
        this.byFirst.set(key, [...(this.byFirst.get(key) ?? []), pattern]);
      }
    }
    this.numbersFirst = this.byFirst.get('#');
  }

  /** The longest match starting at word i among these patterns, or null. */
  private longestAt(scan: Scan, words: readonly Word[], i: number, candidates: readonly Pattern[]): PatternMatch | null {
    let best: { to: number; pattern: string } | null = null;
    for (const pattern of candidates) {
      const to = matchSlots(scan, words, pattern.slots, 0, i, -1);
      if (to !== null && (best === null || to > best.to)) best = { to, pattern: pattern.source };
    }
    return best === null ? null : toMatch(scan, words, i, best.to, best.pattern);
  }

  /** The longest match starting at word i, or null. */
  matchAt(scan: Scan, words: readonly Word[], i: number): PatternMatch | null {
    const w = words[i]?.w ?? '';
    const candidates = this.byFirst.get(w) ?? (this.numbersFirst !== undefined && isNumber(w) ? this.numbersFirst : undefined);
    return candidates === undefined ? null : this.longestAt(scan, words, i, candidates);
  }

  /**
   * Every match, leftmost first; at one start the longest; matches do not overlap. Only where a
   * pattern's first words stand, and only patterns whose every required word is in the draft.
   */
  find(scan: Scan, words: readonly Word[], index: WordIndex = indexWords(words)): PatternMatch[] {
    // Where a viable pattern may start, in text order (a word and a number may both start one).
    const starts: number[] = [];
    for (const [key, patterns] of this.byFirst) {
      const positions = key === '#' ? index.numbers : index.at.get(key);
      if (positions === undefined || positions.length === 0 || !patterns.some((pattern) => viableIn(pattern, index))) continue;
      for (const at of positions) starts.push(at);
    }
    if (starts.length === 0) return [];
    starts.sort((a, b) => a - b);
    const found: PatternMatch[] = [];
    let free = 0;
    for (let k = 0; k < starts.length; k++) {
      const at = starts[k] ?? 0;
      if (at < free || at === starts[k - 1]) continue;
      const w = words[at]?.w ?? '';
      let best = -1;
      let source = '';
      const listed = this.byFirst.get(w);
      const numbered = this.numbersFirst !== undefined && isNumber(w) ? this.numbersFirst : undefined;
      for (const candidates of [listed, numbered]) {
        if (candidates === undefined) continue;
        for (const pattern of candidates) {
          if (!viableIn(pattern, index)) continue;
          const to = matchSlots(scan, words, pattern.slots, 0, at, -1);
          if (to !== null && to > best) {
            best = to;
            source = pattern.source;
          }
        }
      }
      if (best < 0) continue;
      found.push(toMatch(scan, words, at, best, source));
      free = best + 1;
    }
    return found;
  }
}

/** Every required slot has one of its words somewhere in the draft (a necessary condition, cached per draft). */
function viableIn(pattern: Pattern, index: WordIndex): boolean {
  const known = index.viable.get(pattern);
  if (known !== undefined) return known;
  let ok = true;
  for (const slot of pattern.needs) {
    let any = false;
    for (const word of slot) {
      if (word === '#' ? index.numbers.length > 0 : index.at.has(word)) {
        any = true;
        break;
      }
    }
    if (!any) {
      ok = false;
      break;
    }
  }
  index.viable.set(pattern, ok);
  return ok;
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
