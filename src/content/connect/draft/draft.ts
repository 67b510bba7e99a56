/**
 * A draft as every check reads it (the scan and its spelt-out words), what a check finds, and the
 * small questions several checks ask of a word's surroundings.
 */
import type { Scan } from '../message-scan.ts';
import { matchSets, type PatternMatch, type PatternSet } from './patterns.ts';
import { wordsOf, type Word } from './words.ts';

export interface Draft {
  scan: Scan;
  words: Word[];
  /** Words [sentenceStart[s], sentenceEnd[s]) are sentence s's. */
  sentenceStart: number[];
  sentenceEnd: number[];
  /** Per sentence, where each word first stands in it: built when first asked, so every check stays linear. */
  firstIndex: Map<number, Map<string, number>>;
  /** What every pattern set finds, by set id: matched together when a check first asks (words.ts `matchSets`). */
  matches?: (readonly PatternMatch[])[];
}

/** What a check found: a passage of at most one sentence, by UTF-16 offsets. */
export interface Finding {
  check: string;
  start: number;
  end: number;
  sentence: number;
  /** Filled into the advice: `{words}` for a long sentence, `{limit}` for a long message. */
  words?: number;
  limit?: number;
}

export function readDraft(scan: Scan): Draft {
  const words = wordsOf(scan);
  const sentenceStart = new Array<number>(scan.sentences.length).fill(words.length);
  const sentenceEnd = new Array<number>(scan.sentences.length).fill(words.length);
  for (let i = words.length - 1; i >= 0; i--) {
    const sentence = scan.tokenSentence[words[i]?.token ?? 0] ?? 0;
    if (sentenceStart[sentence] === words.length) sentenceEnd[sentence] = i + 1;
    sentenceStart[sentence] = i;
  }
  return { scan, words, sentenceStart, sentenceEnd, firstIndex: new Map() };
}

/** Every match of a pattern set in the draft. */
export function findIn(draft: Draft, set: PatternSet): readonly PatternMatch[] {
  draft.matches ??= matchSets(draft.scan, draft.words);
  return draft.matches[set.id] ?? set.find(draft.scan, draft.words);
}

export function sentenceOf(draft: Draft, word: number): number {
  return draft.scan.tokenSentence[draft.words[word]?.token ?? -1] ?? -1;
}

/** Words [from, to) of one sentence. */
export function sentenceWords(draft: Draft, sentence: number): { from: number; to: number } {
  const from = draft.sentenceStart[sentence] ?? draft.words.length;
  return { from, to: Math.max(from, draft.sentenceEnd[sentence] ?? from) };
}

/** Where a word first stands in a sentence (an index into the words), or -1. */
export function firstIn(draft: Draft, sentence: number, word: string): number {
  let index = draft.firstIndex.get(sentence);
  if (index === undefined) {
    index = new Map();
    const { from, to } = sentenceWords(draft, sentence);
    for (let i = from; i < to; i++) {
      const w = draft.words[i]?.w ?? '';
      if (!index.has(w)) index.set(w, i);
    }
    draft.firstIndex.set(sentence, index);
  }
  return index.get(word) ?? -1;
}

export function findingOf(check: string, m: Pick<PatternMatch, 'start' | 'end' | 'sentence'>): Finding {
  return { check, start: m.start, end: m.end, sentence: m.sentence };
}

/** The word opens its sentence or a clause (after a comma, colon, semicolon or dash), perhaps after "so", "and" or "then". */
export function atClauseStart(draft: Draft, word: number): boolean {
  const { scan, words } = draft;
  let at = word;
  const previous = (): number => at - 1;
  if (at > 0 && ['so', 'and', 'then', 'but', 'now'].includes(words[previous()]?.w ?? '') && sentenceOf(draft, previous()) === sentenceOf(draft, at)) at = previous();
  if (at === 0 || sentenceOf(draft, at - 1) !== sentenceOf(draft, at)) return true;
  const left = scan.tokens[words[at - 1]?.token ?? 0];
  const right = scan.tokens[words[at]?.token ?? 0];
  if (left === undefined || right === undefined || left === right) return false;
  return /[,;:—–(]|\s-\s/.test(scan.text.slice(left.end, right.start));
}

/** Some word of the sentence is one of these. */
export function sentenceHas(draft: Draft, sentence: number, set: ReadonlySet<string>): boolean {
  for (const word of set) if (firstIn(draft, sentence, word) >= 0) return true;
  return false;
}

/** Matches of the same check that touch or are joined only by "and", "or" or a comma read as one passage. */
export function joinNeighbours(draft: Draft, findings: Finding[]): Finding[] {
  const out: Finding[] = [];
  for (const f of [...findings].sort((a, b) => a.start - b.start)) {
    const last = out[out.length - 1];
    if (last !== undefined && last.check === f.check && last.sentence === f.sentence && /^[\s,]*(?:and|or)?[\s,]*$/i.test(draft.scan.text.slice(last.end, f.start))) {
      last.end = Math.max(last.end, f.end);
    } else out.push({ ...f });
  }
  return out;
}
