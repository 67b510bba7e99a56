/**
 * The draft's words as the checks read them (patterns.ts matches over them).
 *
 * Contractions are spelt out ("I've" → i have, "won't" → will not, "it's" → it is), so one
 * pattern covers "I've booked" and "I have booked"; each word keeps the token it came from, so a
 * match maps back to offsets in the submitted text. A possessive "'s" ("Friday's") stays part of
 * its word.
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
