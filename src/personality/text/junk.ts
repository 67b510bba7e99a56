import { stripMarkup } from './markup.ts';
import { tokenize, type TokenizedText } from './tokenizer.ts';
import { readWords, type TextWords } from './words.ts';

/**
 * Decides whether a text can carry a personality at all. The checks run on counts the
 * tokenizer already made, plus one Map pass over the words.
 */

export type RejectionReason = 'too_short' | 'junk' | 'unsupported_language';

/**
 * Fewest words the model reads. Below about 40 words a single word moves a word-class
 * rate by 2.5 points or more, and on the essays the held-out logits of 50-word excerpts
 * are already close to chance (see DATA_CARD.md); 40 is where a score stops being noise
 * dressed up as a result, and a short bio or a paragraph of e-mail still clears it.
 */
export const MIN_WORDS = 40;

/**
 * Frequent English function words. Every English text of some length is full of them
 * (about 40% of running words); text in another language has few.
 */
const ENGLISH_FUNCTION_WORDS = new Set(
  ('the a an and or but if so of to in on at by for with from about as into than then that this these those there here ' +
    'is are was were be been being am do does did have has had will would can could should may might must shall ' +
    'i me my we us our you your he him his she her it its they them their who what which when where why how ' +
    'not no all some any more most very just also only too up out over after before because while ' +
    "i'm it's don't can't i've i'll that's there's didn't isn't")
    .split(' '),
);

/** Share of function words below which a text is not read as English. */
const MIN_ENGLISH_SHARE = 0.15;
/**
 * Labelled text (a resume) is written in clipped phrases ("Led a team of 8"), so its
 * function-word share is lower; the threshold is relaxed rather than rejecting English.
 */
const MIN_ENGLISH_SHARE_LABELLED = 0.08;
/** English letters are about 40% vowels (with y); keyboard mashing is far below. */
const MIN_VOWEL_SHARE = 0.25;
/**
 * Words with four consonants in a row: under 1% of English words ("lengths"), a few
 * percent in German ("Menschen"), a third or more of random letter strings.
 */
const MAX_CLUSTERED_WORD_SHARE = 0.2;
/** Most of the letters in another script: the model only read English. */
const MAX_NON_ASCII_LETTER_SHARE = 0.3;
/** Code and markup: brackets, operators and separators per word. */
const MAX_SYMBOLS_PER_WORD = 0.3;
/** No word, not even "the", fills more than about 7% of English prose. */
const MAX_TOP_WORD_SHARE = 0.3;
/** Distinct words per word in the opening stretch; prose is well above half. */
const MIN_VARIETY = 0.2;
const VARIETY_SPAN = 300;

/** Non-space characters from which a wordless text counts as junk rather than short. */
const JUNK_CHARACTERS = 200;

/** Whitespace-separated chunks and the characters in them, in one pass. */
function measureChunks(text: string): { chunks: number; characters: number } {
  let characters = 0;
  let chunks = 0;
  let inChunk = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const space = code === 32 || code === 9 || code === 10 || code === 13;
    if (!space && !inChunk) chunks++;
    if (!space) characters++;
    inChunk = !space;
  }
  return { chunks, characters };
}

/** Bullet and heading lines, the shape of a resume or a list (labelled.ts reads them). */
const LIST_LINE = /^\s*(?:[-•·▪*–—>]|\d{1,2}[.)]|[A-Z][A-Z &/-]{2,40}:?\s*$)/;

/**
 * Whether a text is written in clipped list lines (a resume): then its function-word share is
 * naturally low and the relaxed English threshold applies. Prose, an email or a bio gets the
 * strict one, so another language written as prose is not read as English.
 */
export function isListShaped(text: string): boolean {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines.length < 4) return false;
  return lines.filter((line) => LIST_LINE.test(line)).length / lines.length >= 0.3;
}

/**
 * @param raw the text as sent, to tell "short" (little was written) from "junk" (plenty was
 *   written, but not words: numbers, markup, symbols) and to see whether it is list-shaped.
 * @param tokens the words read (labels, boilerplate and markup set aside).
 */
export function rejectionOf(raw: string, tokens: TokenizedText): RejectionReason | undefined {
  const read = readOrReject(raw, tokens);
  return 'reason' in read ? read.reason : undefined;
}

/**
 * Why a text cannot carry a personality (see rejectionOf), or, when it can, its words looked up
 * (words.ts) for the reading. The checks on the tokenizer's counts come first, so a text they
 * refuse (random keystrokes, another script) never fills the lexicon's memo with its words.
 */
export function readOrReject(raw: string, tokens: TokenizedText): { reason: RejectionReason } | { words: TextWords } {
  const { words } = tokens;
  if (words.length < MIN_WORDS) {
    const written = measureChunks(raw);
    if (written.chunks < MIN_WORDS && written.characters < JUNK_CHARACTERS) return { reason: 'too_short' };
    // Plenty was written. Words the reader set aside as labels (a resume of headings and dates)
    // make it short of prose; no words at all (numbers, markup, symbols) make it junk.
    return { reason: tokenize(stripMarkup(raw)).words.length >= MIN_WORDS ? 'too_short' : 'junk' };
  }
  const { punctuation } = tokens;
  const codeMarks = tokens.symbols + punctuation.parenthesis + punctuation.colon;
  if (codeMarks / words.length > MAX_SYMBOLS_PER_WORD) return { reason: 'junk' };
  if (tokens.nonAsciiLetters / Math.max(tokens.letters, 1) > MAX_NON_ASCII_LETTER_SHARE) return { reason: 'unsupported_language' };
  if (tokens.vowels / Math.max(tokens.letters - tokens.nonAsciiLetters, 1) < MIN_VOWEL_SHARE) return { reason: 'junk' };
  if (tokens.consonantClusterWords / words.length > MAX_CLUSTERED_WORD_SHARE) return { reason: 'junk' };

  const textWords = readWords(words, tokens.wordHashes);
  const { ids, infos } = textWords;
  // Per distinct word (words.ts numbers them), its count so far.
  const counts = new Int32Array(textWords.distinct);
  let topCount = 0;
  let functionWords = 0;
  let distinctInSpan = 0;
  for (let index = 0; index < words.length; index++) {
    const id = ids[index] ?? 0;
    const count = (counts[id] ?? 0) + 1;
    counts[id] = count;
    if (count > topCount) topCount = count;
    if (count === 1 && index < VARIETY_SPAN) distinctInSpan++;
    const info = infos[index];
    if (info !== undefined) {
      info.englishFunctionWord ??= ENGLISH_FUNCTION_WORDS.has(words[index] ?? '');
      if (info.englishFunctionWord) functionWords++;
    }
  }
  if (topCount / words.length > MAX_TOP_WORD_SHARE) return { reason: 'junk' };
  if (distinctInSpan / Math.min(words.length, VARIETY_SPAN) < MIN_VARIETY) return { reason: 'junk' };
  const minShare = isListShaped(raw) ? MIN_ENGLISH_SHARE_LABELLED : MIN_ENGLISH_SHARE;
  if (functionWords / words.length < minShare) return { reason: 'unsupported_language' };
  return { words: textWords };
}
